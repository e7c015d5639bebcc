/**
 * Invitations: how a person an owner added by email joins the workspace.
 *
 * An invitation belongs to (workspace, email) and grants that workspace only.
 * It is accepted only through its link, by whoever is — or becomes — the account
 * with that email:
 * - no account yet: the link's holder chooses a password, which makes the account
 *   and the membership in one transaction;
 * - an account already: its owner signs in and presses Join (or Decline). The link
 *   never sets or changes the password of an account that exists.
 * Mnemo sends no email, so an address proves nothing about who holds it; the link,
 * which only the inviting owner sees, is the one thing that does. That is why a
 * waiting invitation is never offered to an account without its link.
 *
 * The token travels only in the link, shown once to the owner; the database keeps
 * its SHA-256, so a copy of the database opens nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { invites, memberships, users, workspaces, type Role } from "@/db/schema";
import { newId } from "@/lib/ids";
import { recordAudit, type AuditActor } from "./audit";

export const INVITE_DAYS = 7;

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The path of an invite link; the page that shows it adds the site's origin. */
export function invitePath(token: string): string {
  return `/invite/${token}`;
}

function newToken(): string {
  return randomBytes(32).toString("base64url");
}

function expiry(now: Date): string {
  return new Date(now.getTime() + INVITE_DAYS * 86_400_000).toISOString();
}

/**
 * An account that can sign in: a password, or an OAuth account. One that cannot
 * and belongs to no workspace is a leftover of the first version's invites, and
 * an invitation's link may still give it its first password.
 */
const canSignIn = sql`(${users.passwordHash} IS NOT NULL OR EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = ${users.id}))`;
const inAnyWorkspace = sql`EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = ${users.id})`;

/**
 * Invites (workspace, email) with a role, replacing any earlier link for the same
 * address here. Returns the token — show it once. The answer is the same whether
 * or not the email has an account: nothing about other workspaces or people is
 * read. Call inside the caller's transaction.
 */
export async function issueInvite(
  tx: Conn,
  actor: AuditActor,
  workspaceId: string,
  input: { email: string; name?: string | null; role: Role },
  now: Date = new Date(),
): Promise<string> {
  const token = newToken();
  const values = {
    tokenHash: hashInviteToken(token),
    name: input.name ?? null,
    role: input.role,
    invitedBy: actor.id,
    createdAt: now.toISOString(),
    expiresAt: expiry(now),
  };
  await tx
    .insert(invites)
    .values({ id: newId("inv"), workspaceId, email: input.email, ...values })
    .onConflictDoUpdate({ target: [invites.workspaceId, invites.email], set: values });
  return token;
}

export type WaitingInvite = { id: string; email: string; name: string | null; role: Role; expiresAt: string; expired: boolean };

/** The invitations of a workspace not yet accepted, by email. For its owners. */
export async function listInvites(db: Conn, workspaceId: string, now: Date = new Date()): Promise<WaitingInvite[]> {
  const rows = await db
    .select({ id: invites.id, email: invites.email, name: invites.name, role: invites.role, expiresAt: invites.expiresAt })
    .from(invites)
    .where(eq(invites.workspaceId, workspaceId))
    .orderBy(asc(invites.email));
  return rows.map((row) => ({ ...row, expired: row.expiresAt <= now.toISOString() }));
}

/** A new link for a waiting invitation (the old one stops working), with seven more days. */
export async function renewInvite(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  inviteId: string,
  now: Date = new Date(),
): Promise<{ status: "renewed"; email: string; token: string } | { status: "not_found" }> {
  return db.transaction(async (tx) => {
    const token = newToken();
    const [row] = await tx
      .update(invites)
      .set({ tokenHash: hashInviteToken(token), invitedBy: actor.id, createdAt: now.toISOString(), expiresAt: expiry(now) })
      .where(and(eq(invites.workspaceId, workspaceId), eq(invites.id, inviteId)))
      .returning({ email: invites.email });
    if (!row) return { status: "not_found" };
    await recordAudit(tx, workspaceId, actor, "invite.renew", row.email);
    return { status: "renewed", email: row.email, token };
  });
}

/** Withdraws a waiting invitation: its link stops working at once. */
export async function cancelInvite(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  inviteId: string,
): Promise<{ status: "cancelled"; email: string } | { status: "not_found" }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(invites)
      .where(and(eq(invites.workspaceId, workspaceId), eq(invites.id, inviteId)))
      .returning({ email: invites.email });
    if (!row) return { status: "not_found" };
    await recordAudit(tx, workspaceId, actor, "invite.cancel", row.email);
    return { status: "cancelled", email: row.email };
  });
}

/** An open invitation by its link: unexpired. One answer (null) for unknown, used, cancelled and expired links. */
async function inviteByToken(db: Conn, token: string, now: Date) {
  const [row] = await db
    .select({
      id: invites.id,
      workspaceId: invites.workspaceId,
      workspaceName: workspaces.name,
      email: invites.email,
      name: invites.name,
      role: invites.role,
    })
    .from(invites)
    .innerJoin(workspaces, eq(workspaces.id, invites.workspaceId))
    .where(and(eq(invites.tokenHash, hashInviteToken(token)), gt(invites.expiresAt, now.toISOString())))
    .limit(1);
  return row ?? null;
}

/**
 * What the invite page offers for a link:
 * - `join`: the signed-in person is the invited email — Join or Decline;
 * - `other_account`: someone else is signed in — sign out first;
 * - `sign_in`: the email has an account — sign in with it to join;
 * - `create_account`: the email has none — choose a password.
 */
export type OpenInvite = {
  workspaceName: string;
  email: string;
  name: string | null;
  role: Role;
  next: "join" | "other_account" | "sign_in" | "create_account";
};

export async function openInvite(
  db: Conn,
  token: string,
  signedIn: { email: string } | null,
  now: Date = new Date(),
): Promise<OpenInvite | null> {
  const invite = await inviteByToken(db, token, now);
  if (!invite) return null;
  const shown = { workspaceName: invite.workspaceName, email: invite.email, name: invite.name, role: invite.role };
  if (signedIn) return { ...shown, next: signedIn.email === invite.email ? "join" : "other_account" };
  return { ...shown, next: (await claimableAccount(db, invite.email)) === "taken" ? "sign_in" : "create_account" };
}

/** Whether an email is free for a new account ("free"), a leftover password-less one ("leftover"), or in use ("taken"). */
async function claimableAccount(db: Conn, email: string): Promise<"free" | "leftover" | "taken"> {
  const [row] = await db
    .select({ canSignIn: sql<number>`${canSignIn}`, inAnyWorkspace: sql<number>`${inAnyWorkspace}` })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  if (!row) return "free";
  return row.canSignIn || row.inAnyWorkspace ? "taken" : "leftover";
}

export type AcceptResult =
  | { status: "joined"; workspaceId: string; email: string }
  /** The email has an account: its owner signs in and joins from the link; the link sets no password. */
  | { status: "account_exists" }
  | { status: "unusable" };

/**
 * Someone new accepts: the account (with this password and name) and the
 * membership are made in one transaction, and the invitation is used up. A
 * second, concurrent use of the link finds the invitation gone and changes nothing.
 */
export async function acceptInviteAsNewAccount(
  db: Conn,
  token: string,
  input: { name: string; passwordHash: string },
  now: Date = new Date(),
): Promise<AcceptResult> {
  return db.transaction(async (tx): Promise<AcceptResult> => {
    const invite = await inviteByToken(tx, token, now);
    if (!invite) return { status: "unusable" };
    const account = await claimableAccount(tx, invite.email);
    if (account === "taken") return { status: "account_exists" };
    const used = await tx.delete(invites).where(eq(invites.id, invite.id)).returning({ id: invites.id });
    if (!used.length) return { status: "unusable" };
    let userId: string;
    if (account === "free") {
      userId = newId("user");
      await tx.insert(users).values({ id: userId, email: invite.email, name: input.name, passwordHash: input.passwordHash });
    } else {
      // A first-version account nobody ever signed in to, in no workspace: the link's holder gives it its first password.
      const [claimed] = await tx
        .update(users)
        .set({ name: input.name, passwordHash: input.passwordHash })
        .where(and(eq(users.email, invite.email), sql`NOT ${canSignIn}`, sql`NOT ${inAnyWorkspace}`))
        .returning({ id: users.id });
      if (!claimed) return { status: "account_exists" };
      userId = claimed.id;
    }
    await tx.insert(memberships).values({ workspaceId: invite.workspaceId, userId, role: invite.role });
    await recordAudit(tx, invite.workspaceId, { id: userId, name: input.name }, "invite.accept", `${input.name} <${invite.email}> as ${invite.role}`);
    return { status: "joined", workspaceId: invite.workspaceId, email: invite.email };
  });
}

/**
 * A signed-in person answers an invitation to their own email: Join makes the
 * membership with the invited role; Decline only withdraws it. Either uses the
 * link up. Anyone else — another account, a wrong or expired link — gets `unusable`.
 */
export async function answerInvite(
  db: Conn,
  token: string,
  person: { id: string; name: string; email: string },
  answer: "join" | "decline",
  now: Date = new Date(),
): Promise<{ status: "joined" | "declined"; workspaceId: string } | { status: "unusable" }> {
  return db.transaction(async (tx) => {
    const invite = await inviteByToken(tx, token, now);
    if (!invite || invite.email !== person.email) return { status: "unusable" };
    const used = await tx.delete(invites).where(eq(invites.id, invite.id)).returning({ id: invites.id });
    if (!used.length) return { status: "unusable" };
    const actor = { id: person.id, name: person.name };
    if (answer === "decline") {
      await recordAudit(tx, invite.workspaceId, actor, "invite.decline", `${person.name} <${person.email}>`);
      return { status: "declined", workspaceId: invite.workspaceId };
    }
    // Already a member (added twice, or joined another way): the role they have stays.
    await tx
      .insert(memberships)
      .values({ workspaceId: invite.workspaceId, userId: person.id, role: invite.role })
      .onConflictDoNothing();
    await recordAudit(tx, invite.workspaceId, actor, "invite.accept", `${person.name} <${person.email}> as ${invite.role}`);
    return { status: "joined", workspaceId: invite.workspaceId };
  });
}
