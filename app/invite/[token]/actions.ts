"use server";

/**
 * Answering an invitation. Its link is the credential, so the token is checked
 * inside the same transaction that acts on it, and every unusable link gets the
 * one answer that gives nothing away. Someone new makes their account here;
 * someone with an account must be signed in as the invited email to join.
 */
import { AuthError } from "next-auth";
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { userAction } from "@/lib/actions/user-action";
import { acceptInviteAsNewAccount, answerInvite } from "@/lib/admin/invites";
import { signIn } from "@/lib/auth";
import { hashPassword } from "@/lib/auth/password";
import { acceptInviteInput, answerInviteInput } from "@/lib/validation/admin";
import { ACCOUNT_EXISTS, INVITE_UNUSABLE } from "./messages";

export type AcceptInviteState =
  | { status: "idle" }
  | { status: "invalid_data"; message: string }
  | { status: "failed"; message: string };

/** Someone new: their name and password make the account and its membership of this workspace only. */
export async function acceptInviteAction(_previous: AcceptInviteState, sent: FormData): Promise<AcceptInviteState> {
  // A forged call can send any value in place of the form (a server action is a public endpoint): read it as an empty form.
  const formData = sent instanceof FormData ? sent : new FormData();
  const parsed = acceptInviteInput.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === "token") return { status: "failed", message: INVITE_UNUSABLE };
    return { status: "invalid_data", message: issue?.message ?? "Check the form." };
  }
  const { token, name, password } = parsed.data;
  // Hashed before the transaction: argon2 takes a moment, and no write lock is held meanwhile.
  const accepted = await acceptInviteAsNewAccount(getDb(), token, { name, passwordHash: await hashPassword(password) });
  switch (accepted.status) {
    case "unusable":
      return { status: "failed", message: INVITE_UNUSABLE };
    case "account_exists":
      return { status: "failed", message: ACCOUNT_EXISTS };
    case "joined":
      break;
  }
  try {
    await signIn("credentials", { email: accepted.email, password, redirectTo: `/w/${accepted.workspaceId}` });
  } catch (error) {
    // A successful sign-in "throws" Next's redirect; an Auth.js error (such as too many attempts) is not fatal.
    if (!(error instanceof AuthError)) throw error;
  }
  redirect("/signin");
}

/** A signed-in person joins (or declines) a workspace that invited their email. */
export const answerInviteAction = userAction(answerInviteInput, async ({ db, user }, input) => {
  const answered = await answerInvite(db, input.token, user, input.answer);
  if (answered.status === "unusable") return { status: "failed" as const, message: INVITE_UNUSABLE };
  redirect(answered.status === "joined" ? `/w/${answered.workspaceId}` : "/");
});
