/**
 * People's accounts as the operator and sign-up make them: one person per email,
 * passwords hashed (argon2id) by the caller before the transaction starts, so no
 * write lock is held while hashing.
 */
import { eq } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { forgetSignInFailures } from "@/lib/auth/throttle";
import { newId } from "@/lib/ids";
import { endSessions } from "@/lib/auth/session-version";
import { displayName } from "@/lib/person-name";
import { recordAudit, type AuditActor } from "./audit";
import { createWorkspace } from "./workspaces";

export type Person = { id: string; name: string; email: string };

/** The person with this (lower-case) email, or null; `hasPassword` is false for OAuth-only or invited people. */
export async function personByEmail(db: Conn, email: string): Promise<(Person & { hasPassword: boolean }) | null> {
  const [row] = await db
    .select({ id: users.id, name: users.name, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (!row) return null;
  return { id: row.id, name: displayName(row), email: row.email, hasPassword: row.passwordHash !== null };
}

/** A new person; call inside the caller's transaction, after checking the email is free. */
export async function insertPerson(
  tx: Conn,
  input: { name: string; email: string; passwordHash: string },
): Promise<Person> {
  const id = newId("user");
  await tx.insert(users).values({ id, name: input.name, email: input.email, passwordHash: input.passwordHash });
  return { id, name: input.name, email: input.email };
}

export type OwnedWorkspace =
  | { status: "created"; workspaceId: string; owner: Person; newPerson: boolean; hasPassword: boolean }
  /** A password was given for a person who (by now) already has an account: nothing was written. */
  | { status: "person_exists"; owner: Person };

/**
 * A workspace and its first owner, in one transaction: the person is made when
 * the email is new (with `passwordHash`), or else the existing account is used
 * unchanged (pass no hash). The audit list names `actor`.
 */
export async function createWorkspaceWithOwner(
  db: Conn,
  actor: AuditActor,
  input: { workspaceName: string; email: string; ownerName: string; passwordHash: string | null },
): Promise<OwnedWorkspace> {
  return db.transaction(async (tx): Promise<OwnedWorkspace> => {
    const existing = await personByEmail(tx, input.email);
    if (existing && input.passwordHash !== null) return { status: "person_exists", owner: existing };
    let owner: Person | null = existing;
    if (!owner) {
      if (input.passwordHash === null) throw new Error("A new person needs a password hash.");
      owner = await insertPerson(tx, { name: input.ownerName, email: input.email, passwordHash: input.passwordHash });
    }
    const workspaceId = await createWorkspace(tx, owner, input.workspaceName, actor);
    if (actor.id !== owner.id) await recordAudit(tx, workspaceId, actor, "member.add", `${owner.name}, as owner`);
    return { status: "created", workspaceId, owner, newPerson: !existing, hasPassword: existing?.hasPassword ?? true };
  });
}

/**
 * Sets a person's password and clears their failed sign-ins, so a locked-out
 * person can sign in at once. Each of their workspaces' owners see it in the audit list.
 */
export async function resetPassword(
  db: Conn,
  actor: AuditActor,
  email: string,
  passwordHash: string,
): Promise<Person | null> {
  return db.transaction(async (tx) => {
    const person = await personByEmail(tx, email);
    if (!person) return null;
    await tx.update(users).set({ passwordHash }).where(eq(users.id, person.id));
    // Whoever knew the old password may hold a session: it ends with the password.
    await endSessions(tx, person.id);
    await forgetSignInFailures(tx, email);
    const rows = await tx
      .select({ workspaceId: memberships.workspaceId })
      .from(memberships)
      .where(eq(memberships.userId, person.id));
    for (const { workspaceId } of rows) {
      await recordAudit(tx, workspaceId, actor, "person.reset-password", person.name);
    }
    return person;
  });
}
