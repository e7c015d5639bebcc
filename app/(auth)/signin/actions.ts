"use server";

import { AuthError } from "next-auth";
import { z } from "zod";
import { signIn } from "@/lib/auth";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { tryAgainIn } from "@/lib/auth/throttle";

export type SignInState =
  | { status: "idle" }
  | { status: "failed"; message: string; email: string };

const input = z.object({
  email: z.string().trim().min(1, "Enter your email address.").max(254, "That email address is too long."),
  password: z.string().min(1, "Enter your password.").max(1024, "That password is too long."),
  callbackUrl: z.string().optional(),
});

const WRONG_CREDENTIALS = "That email and password don't match an account. Check them and try again.";

/** The form's words for an Auth.js error code; a refusal to check at all says how long to wait (lib/auth/index.ts). */
function messageFor(code: string): string {
  const rateLimited = /^rate_limited_(\d+)$/.exec(code);
  return rateLimited ? `Too many attempts. ${tryAgainIn(Number(rateLimited[1]) * 1000)}` : WRONG_CREDENTIALS;
}

/** Signs in with email and password; on success Auth.js redirects, on failure the form says why. */
export async function signInWithPassword(_previous: SignInState, sent: FormData): Promise<SignInState> {
  // A forged call can send any value in place of the form (a server action is a public endpoint): read it as an empty form.
  const formData = sent instanceof FormData ? sent : new FormData();
  const parsed = input.safeParse(Object.fromEntries(formData));
  const email = String(formData.get("email") ?? "").slice(0, 254);
  if (!parsed.success) return { status: "failed", message: parsed.error.issues[0].message, email };
  try {
    await signIn("credentials", {
      email: parsed.data.email,
      password: parsed.data.password,
      redirectTo: safeCallbackUrl(parsed.data.callbackUrl),
    });
  } catch (error) {
    // A successful sign-in "throws" Next's redirect; only Auth.js errors are failures.
    if (error instanceof AuthError) {
      const code = "code" in error && typeof error.code === "string" ? error.code : "";
      return { status: "failed", message: messageFor(code), email };
    }
    throw error;
  }
  return { status: "idle" };
}

/** Starts an OAuth or OIDC sign-in with a provider the sign-in page offers. */
export async function signInWithProvider(formData: FormData): Promise<void> {
  if (!(formData instanceof FormData)) return;
  const provider = z.string().regex(/^[a-z0-9-]+$/).safeParse(formData.get("provider"));
  if (!provider.success) return;
  await signIn(provider.data, { redirectTo: safeCallbackUrl(formData.get("callbackUrl")) });
}
