/**
 * The people of a workspace as owners manage them: add by email, change role,
 * remove. A workspace always keeps an owner, and that guard is part of the write's
 * own SQL inside its transaction, so two owners demoting each other at the same
 * moment can't leave the workspace with none.
 *
 * Removing a person deletes their membership; the foreign key from channel_members
 * takes their channel memberships with it in the same statement, so their access
 * to channel facts ends at once. Their person facts stay: they are theirs, shown
 * to no one else, and theirs again if they come back.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { invites, memberships, users, type Role } from "@/db/schema";
import { newId } from "@/lib/ids";
import { handleOf } from "@/lib/memory/place";
import { recordAudit, type AuditActor } from "./audit";
import { issueInvite } from "./invites";

export type Person = {
  id: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
  /** No way to sign in yet: no password and no OAuth account. An owner can make them a new invite link. */
  awaitingPassword: boolean;
};

const displayName = (person: { name: string | null; email: string }) => person.name ?? handleOf(person.email);

/** Everyone in the workspace, owners first, then by name. */
export async function listPeople(db: Conn, workspaceId: string): Promise<Person[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      joinedAt: memberships.createdAt,
      awaitingPassword: sql<number>`(${users.passwordHash} IS NULL
        AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = ${users.id}))`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(sql`${memberships.role} <> 'owner'`, asc(sql`coalesce(${users.name}, ${users.email})`));
  return rows.map((row) => ({ ...row, name: displayName(row), awaitingPassword: Boolean(row.awaitingPassword) }));
}

export type AddPersonResult =
  | { status: "joined"; name: string }
  /** A new account (or one that never set a password): the link is shown to the owner once. */
  | { status: "invited"; name: string; token: string }
  | { status: "already_member"; name: string };

/**
 * Adds a person by email. An existing account joins at once; an unknown email gets
 * an account with no password and an invite (as does an account that never set
 * one, so they can). Coming back after being removed restores nothing but the
 * membership: their person facts were theirs all along, their channels are not.
 */
export async function addPerson(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  input: { email: string; name?: string; role?: Role },
): Promise<AddPersonResult> {
  const email = input.email.trim().toLowerCase();
  const role = input.role ?? "member";
  return db.transaction(async (tx) => {
    let [user] = await tx
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        canSignIn: sql<number>`(${users.passwordHash} IS NOT NULL
          OR EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = ${users.id}))`,
      })
      .from(users)
      .where(eq(users.email, email))
      .limit(1);
    if (!user) {
      const id = newId("user");
      await tx.insert(users).values({ id, email, name: input.name ?? null });
      user = { id, name: input.name ?? null, email, canSignIn: 0 };
    }
    const name = displayName(user);
    const joined = await tx
      .insert(memberships)
      .values({ workspaceId, userId: user.id, role })
      .onConflictDoNothing()
      .returning({ userId: memberships.userId });
    if (!joined.length) return { status: "already_member", name };

    const summary = `${name} <${email}> as ${role}`;
    if (user.canSignIn) {
      await recordAudit(tx, workspaceId, actor, "member.add", summary);
      return { status: "joined", name };
    }
    const token = await issueInvite(tx, workspaceId, user.id, actor.id);
    await recordAudit(tx, workspaceId, actor, "member.invite", summary);
    return { status: "invited", name, token };
  });
}

/** A new invite link for a member who has not set a password yet; earlier links stop working. */
export async function renewInvite(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  userId: string,
): Promise<{ status: "invited"; name: string; token: string } | { status: "not_found" }> {
  return db.transaction(async (tx) => {
    const [person] = await tx
      .select({ id: users.id, name: users.name, email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          eq(memberships.workspaceId, workspaceId),
          eq(memberships.userId, userId),
          sql`${users.passwordHash} IS NULL`,
          sql`NOT EXISTS (SELECT 1 FROM accounts a WHERE a.user_id = ${users.id})`,
        ),
      )
      .limit(1);
    if (!person) return { status: "not_found" };
    const token = await issueInvite(tx, workspaceId, userId, actor.id);
    await recordAudit(tx, workspaceId, actor, "invite.renew", `${displayName(person)} <${person.email}>`);
    return { status: "invited", name: displayName(person), token };
  });
}

/** Owners in the workspace other than this person: the last-owner guard, as SQL. */
function anotherOwner(workspaceId: string, userId: string) {
  return sql`EXISTS (SELECT 1 FROM memberships o
    WHERE o.workspace_id = ${workspaceId} AND o.role = 'owner' AND o.user_id <> ${userId})`;
}

async function membership(tx: Conn, workspaceId: string, userId: string) {
  const [row] = await tx
    .select({ role: memberships.role, name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

export type ChangeRoleResult =
  | { status: "changed" | "unchanged"; name: string }
  | { status: "last_owner"; name: string }
  | { status: "not_found" };

/** Makes a member an owner or an owner a member — never the workspace's last owner. */
export async function changeRole(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  userId: string,
  role: Role,
): Promise<ChangeRoleResult> {
  return db.transaction(async (tx) => {
    const before = await membership(tx, workspaceId, userId);
    if (!before) return { status: "not_found" };
    const name = displayName(before);
    if (before.role === role) return { status: "unchanged", name };
    const changed = await tx
      .update(memberships)
      .set({ role })
      .where(
        and(
          eq(memberships.workspaceId, workspaceId),
          eq(memberships.userId, userId),
          role === "owner" ? undefined : anotherOwner(workspaceId, userId),
        ),
      )
      .returning({ userId: memberships.userId });
    if (!changed.length) return { status: "last_owner", name };
    await recordAudit(tx, workspaceId, actor, "member.role", `${name}: ${before.role} → ${role}`);
    return { status: "changed", name };
  });
}

export type RemovePersonResult = { status: "removed"; name: string } | { status: "last_owner"; name: string } | { status: "not_found" };

/** Takes a person out of the workspace and all its channels at once — never the last owner. */
export async function removePerson(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  userId: string,
): Promise<RemovePersonResult> {
  return db.transaction(async (tx) => {
    const before = await membership(tx, workspaceId, userId);
    if (!before) return { status: "not_found" };
    const name = displayName(before);
    const removed = await tx
      .delete(memberships)
      .where(
        and(
          eq(memberships.workspaceId, workspaceId),
          eq(memberships.userId, userId),
          sql`(${memberships.role} <> 'owner' OR ${anotherOwner(workspaceId, userId)})`,
        ),
      )
      .returning({ userId: memberships.userId });
    if (!removed.length) return { status: "last_owner", name };
    // A link still waiting would let them set a password for a workspace they are no longer in.
    await tx.delete(invites).where(and(eq(invites.workspaceId, workspaceId), eq(invites.userId, userId)));
    await recordAudit(tx, workspaceId, actor, "member.remove", `${name} <${before.email}>`);
    return { status: "removed", name };
  });
}
