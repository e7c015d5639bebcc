"use server";

/**
 * Accepting an invite: a public endpoint (the link is the credential), so the
 * token is checked inside the same transaction that sets the password, and
 * every failure gets the one answer that gives nothing away.
 */
import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { acceptInvite } from "@/lib/admin/invites";
import { signIn } from "@/lib/auth";
import { hashPassword } from "@/lib/auth/password";
import { acceptInviteInput } from "@/lib/validation/admin";
import { INVITE_UNUSABLE } from "./messages";

export type AcceptInviteState =
  | { status: "idle" }
  | { status: "invalid_data"; message: string }
  | { status: "failed"; message: string };

export async function acceptInviteAction(_previous: AcceptInviteState, sent: FormData): Promise<AcceptInviteState> {
  // A forged call can send any value in place of the form (a server action is a public endpoint): read it as an empty form.
  const formData = sent instanceof FormData ? sent : new FormData();
  const parsed = acceptInviteInput.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === "token") return { status: "failed", message: INVITE_UNUSABLE };
    return { status: "invalid_data", message: issue?.message ?? "Check the form." };
  }
  const { token, password } = parsed.data;
  // Hashed before the transaction: argon2 takes a moment, and no write lock is held meanwhile.
  const accepted = await acceptInvite(getDb(), token, await hashPassword(password));
  if (!accepted) return { status: "failed", message: INVITE_UNUSABLE };

  try {
    await signIn("credentials", { email: accepted.email, password, redirectTo: "/" });
  } catch (error) {
    // A successful sign-in "throws" Next's redirect; an Auth.js error (such as too many attempts) is not fatal.
    if (!(error instanceof AuthError)) throw error;
  }
  redirect("/signin");
}
