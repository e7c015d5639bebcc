/**
 * One-time invites: how a person an owner added by email sets their first
 * password. The token travels only in the link shown once to the owner; the
 * database keeps its SHA-256, so a copy of the database opens no accounts.
 * A link works once, for 7 days, and only while the account has no password —
 * an old link can never take over an account that is already in use.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { invites, users, workspaces } from "@/db/schema";
import { newId } from "@/lib/ids";
import { handleOf } from "@/lib/memory/place";
import { recordAudit } from "./audit";

export const INVITE_DAYS = 7;

export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** The path of an invite link; the page that shows it adds the site's origin. */
export function invitePath(token: string): string {
  return `/invite/${token}`;
}

/**
 * A fresh invite for a member of the workspace, replacing any earlier link of
 * theirs for it. Returns the token — show it once. Call inside the caller's transaction.
 */
export async function issueInvite(
  tx: Conn,
  workspaceId: string,
  userId: string,
  invitedBy: string,
  now: Date = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await tx
    .delete(invites)
    .where(and(eq(invites.workspaceId, workspaceId), eq(invites.userId, userId), isNull(invites.acceptedAt)));
  await tx.insert(invites).values({
    id: newId("inv"),
    workspaceId,
    userId,
    tokenHash: hashInviteToken(token),
    invitedBy,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + INVITE_DAYS * 86_400_000).toISOString(),
  });
  return token;
}

/** Conditions under which a token still opens its account: unused, unexpired, no password yet. */
function usable(token: string, now: Date) {
  return and(
    eq(invites.tokenHash, hashInviteToken(token)),
    isNull(invites.acceptedAt),
    gt(invites.expiresAt, now.toISOString()),
    isNull(users.passwordHash),
  );
}

export type OpenInvite = { email: string; name: string; workspaceName: string };

/** What the invite page shows for a token, or null — one answer for unknown, used and expired links. */
export async function openInvite(db: Conn, token: string, now: Date = new Date()): Promise<OpenInvite | null> {
  const [row] = await db
    .select({ email: users.email, name: users.name, workspaceName: workspaces.name })
    .from(invites)
    .innerJoin(users, eq(users.id, invites.userId))
    .innerJoin(workspaces, eq(workspaces.id, invites.workspaceId))
    .where(usable(token, now))
    .limit(1);
  return row ? { email: row.email, name: row.name ?? handleOf(row.email), workspaceName: row.workspaceName } : null;
}

/**
 * Sets the invited person's password and uses up every open invite of theirs, in
 * one transaction. Returns their email (to sign them in), or null when the link
 * no longer works.
 */
export async function acceptInvite(
  db: Conn,
  token: string,
  passwordHash: string,
  now: Date = new Date(),
): Promise<{ email: string } | null> {
  return db.transaction(async (tx) => {
    const [invite] = await tx
      .select({ userId: invites.userId, workspaceId: invites.workspaceId, email: users.email, name: users.name })
      .from(invites)
      .innerJoin(users, eq(users.id, invites.userId))
      .where(usable(token, now))
      .limit(1);
    if (!invite) return null;
    const at = now.toISOString();
    // The password is set only where there is none: a second, concurrent use of the link changes nothing.
    const set = await tx
      .update(users)
      .set({ passwordHash })
      .where(and(eq(users.id, invite.userId), isNull(users.passwordHash)))
      .returning({ id: users.id });
    if (!set.length) return null;
    await tx
      .update(invites)
      .set({ acceptedAt: at })
      .where(and(eq(invites.userId, invite.userId), isNull(invites.acceptedAt)));
    const actor = { id: invite.userId, name: invite.name ?? handleOf(invite.email) };
    await recordAudit(tx, invite.workspaceId, actor, "invite.accept", actor.name);
    return { email: invite.email };
  });
}
