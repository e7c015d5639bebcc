"use server";

/**
 * Creating an account from the sign-in page, then signing in with it. Public
 * like every server action: whether sign-up is open is decided on the server,
 * in the write transaction (lib/auth/sign-up.ts), never from what the page showed.
 */
import { AuthError } from "next-auth";
import { getDb } from "@/db";
import { signIn } from "@/lib/auth";
import { hashPassword } from "@/lib/auth/password";
import { signUp, signUpOffer, signUpSettings } from "@/lib/auth/sign-up";
import { signUpInput } from "@/lib/validation/accounts";
import { requestAddress } from "@/lib/auth/client-address";
import { startSignUp, tryAgainIn } from "@/lib/auth/throttle";

export type SignUpState =
  | { status: "idle" }
  /** `field`: the field the refusal is about, shown under it; `fields`: what the form shows again. */
  | { status: "failed"; message: string; field?: SignUpField; fields: { name: string; email: string; workspaceName: string } };

type SignUpField = "name" | "email" | "password" | "workspaceName";
const SIGN_UP_FIELDS: readonly string[] = ["name", "email", "password", "workspaceName"];

const CLOSED = "Sign-up is closed here. Ask a workspace owner to add you, then sign in.";
const TAKEN = "There is already an account with this email. Sign in instead.";

function text(value: FormDataEntryValue | null): string {
  return typeof value === "string" ? value.slice(0, 254) : "";
}

export async function createAccountAction(_previous: SignUpState, sent: FormData): Promise<SignUpState> {
  // A forged call can send any value in place of the form (a server action is a public endpoint): read it as an empty form.
  const formData = sent instanceof FormData ? sent : new FormData();
  // What the form shows again after a refusal: never the password.
  const fields = { name: text(formData.get("name")), email: text(formData.get("email")), workspaceName: text(formData.get("workspaceName")) };
  const failed = (message: string, field?: SignUpField): SignUpState => ({ status: "failed", message, fields, ...(field ? { field } : {}) });

  const parsed = signUpInput.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = SIGN_UP_FIELDS.includes(String(issue?.path[0])) ? (issue?.path[0] as SignUpField) : undefined;
    return failed(issue?.message ?? "Check the form.", field);
  }
  const input = parsed.data;
  const db = getDb();
  const settings = signUpSettings();
  // A cheap refusal before the slow hash; signUp decides again under the write lock.
  const offer = await signUpOffer(db, settings);
  if (offer !== (input.kind === "first" ? "first" : "open")) return failed(CLOSED);

  // Counted and decided in one write, before the slow hash, so attempts sent at once are each counted.
  const turn = await startSignUp(db, await requestAddress());
  if (!turn.allowed) return failed(`Too many attempts. ${tryAgainIn(turn.waitMs)}`);

  const passwordHash = await hashPassword(input.password);
  const result = await signUp(db, settings, { ...input, passwordHash });
  if (result.status === "closed") return failed(CLOSED);
  if (result.status === "email_taken") return failed(TAKEN, "email");

  try {
    // On success Auth.js redirects, which Next carries out by throwing: not caught below.
    await signIn("credentials", {
      email: input.email,
      password: input.password,
      redirectTo: result.workspaceId ? `/w/${result.workspaceId}` : "/",
    });
  } catch (error) {
    if (error instanceof AuthError) return failed("Your account is ready, but signing in failed. Sign in with it.");
    throw error;
  }
  return { status: "idle" };
}
