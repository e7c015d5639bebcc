import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { currentUser } from "@/lib/auth/session";
import { signUpOffer, signUpSettings } from "@/lib/auth/sign-up";
import { SignUpForm } from "./sign-up-form";

export const metadata: Metadata = { title: "Create an account" };

/**
 * /signin/create-account: under /signin so the proxy lets people without a
 * session in. What it offers follows the same rule the action enforces.
 */
export default async function CreateAccountPage() {
  if (await currentUser()) redirect("/");
  const offer = await signUpOffer(getDb(), signUpSettings());
  const first = offer === "first";

  return (
    <main className="mx-auto flex min-h-dvh max-w-sm flex-col justify-center gap-8 px-6 py-12">
      <div className="flex flex-col gap-2">
        <p className="text-lg font-semibold text-brand-700">Mnemo</p>
        <h1 className="text-2xl font-semibold tracking-tight">
          {first ? "Create the first account" : "Create an account"}
        </h1>
        <p className="text-sm text-slate-600">
          {first
            ? "This Mnemo has no accounts yet. The first one owns a new workspace: from its settings you add people, channels and agents."
            : offer === "open"
              ? "Once you have an account, start a workspace or ask an owner to add you to theirs."
              : "Sign-up is closed here. Ask a workspace owner to add you, then sign in."}
        </p>
      </div>
      {offer === "closed" ? null : <SignUpForm kind={first ? "first" : "account"} />}
      <p className="text-sm text-slate-600">
        Have an account?{" "}
        <Link href="/signin" className="font-medium text-brand-700 hover:underline">
          Sign in
        </Link>
      </p>
    </main>
  );
}
