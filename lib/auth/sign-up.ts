/**
 * Creating an account from the sign-in page. Without the demo (MNEMO_DEMO=0), an
 * empty database offers its first account, which comes with a workspace it
 * owns. After that, sign-up is closed unless MNEMO_SIGNUP=open, which lets
 * anyone make an account (the person only; they start or join workspaces later).
 *
 * What the page offers is only a hint: signUp decides again inside its write
 * transaction, so a forged request when sign-up is closed changes nothing, and
 * two people racing for the first account cannot both get it.
 */
import type { Conn } from "@/db/client";
import { insertPerson, personByEmail } from "@/lib/admin/accounts";
import { createWorkspace, hasAnyone } from "@/lib/admin/workspaces";
import { readConfig, type Env } from "@/lib/config";

export type SignUpSettings = { demo: boolean; signup: "open" | "closed" };

/** "first": the first account and workspace; "open": an account; "closed": none. */
export type SignUpOffer = "first" | "open" | "closed";

export async function signUpOffer(db: Conn, settings: SignUpSettings): Promise<SignUpOffer> {
  if (!settings.demo && !(await hasAnyone(db))) return "first";
  return settings.signup === "open" ? "open" : "closed";
}

export type NewAccount =
  | { kind: "first"; name: string; email: string; passwordHash: string; workspaceName: string }
  | { kind: "account"; name: string; email: string; passwordHash: string };

export type SignUpResult =
  | { status: "created"; userId: string; workspaceId: string | null }
  | { status: "closed" }
  | { status: "email_taken" };

export async function signUp(db: Conn, settings: SignUpSettings, account: NewAccount): Promise<SignUpResult> {
  return db.transaction(async (tx): Promise<SignUpResult> => {
    // The same rule as signUpOffer, read again under the write lock.
    const offer = await signUpOffer(tx, settings);
    const allowed = account.kind === "first" ? offer === "first" : offer === "open";
    if (!allowed) return { status: "closed" };
    if (await personByEmail(tx, account.email)) return { status: "email_taken" };
    const person = await insertPerson(tx, account);
    const workspaceId = account.kind === "first" ? await createWorkspace(tx, person, account.workspaceName) : null;
    return { status: "created", userId: person.id, workspaceId };
  });
}

/** The sign-up settings of this process's environment. */
export function signUpSettings(env: Env = process.env): SignUpSettings {
  const config = readConfig(env);
  return { demo: config.MNEMO_DEMO, signup: config.MNEMO_SIGNUP };
}
