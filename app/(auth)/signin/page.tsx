import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Button } from "@/components/ui/button";
import { getDb } from "@/db";
import { oauthProviderButtons } from "@/lib/auth";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { currentUser } from "@/lib/auth/session";
import { signUpOffer, signUpSettings } from "@/lib/auth/sign-up";
import { signInWithProvider } from "./actions";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  const providers = oauthProviderButtons();
  const offer = await signUpOffer(getDb(), signUpSettings());

  return (
    <main className="mx-auto flex min-h-dvh max-w-sm flex-col justify-center gap-8 px-6 py-12">
      <div className="flex flex-col gap-2">
        <p className="text-lg font-semibold text-brand-700">Mnemo</p>
        <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
        <p className="text-sm text-slate-600">See and correct what your team&apos;s agents remember.</p>
      </div>
      {offer === "first" ? (
        <p className="rounded-md bg-brand-50 px-3 py-2 text-sm text-slate-700">
          This Mnemo has no accounts yet.{" "}
          <Link href="/signin/create-account" className="font-medium text-brand-700 hover:underline">
            Create the first account
          </Link>
        </p>
      ) : null}
      <SignInForm callbackUrl={callbackUrl} />
      {offer === "open" ? (
        <p className="text-sm text-slate-600">
          New here?{" "}
          <Link href="/signin/create-account" className="font-medium text-brand-700 hover:underline">
            Create an account
          </Link>
        </p>
      ) : null}
      {providers.length > 0 ? (
        <div className="flex flex-col gap-2 border-t border-slate-200 pt-6">
          {providers.map((provider) => (
            <form key={provider.id} action={signInWithProvider}>
              <input type="hidden" name="provider" value={provider.id} />
              <input type="hidden" name="callbackUrl" value={callbackUrl} />
              <Button type="submit" variant="secondary" className="w-full">
                Continue with {provider.name}
              </Button>
            </form>
          ))}
        </div>
      ) : null}
    </main>
  );
}
