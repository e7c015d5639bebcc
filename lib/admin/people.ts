/**
 * The people of a workspace as owners manage them: add by email, change role,
 * remove. A workspace always keeps an owner, and that guard is part of the write's
 * own SQL inside its transaction, so two owners demoting each other at the same
 * moment can't leave the workspace with none.
 *
 * Removing a person deletes their membership; the foreign key from channel_members
 * takes their channel memberships with it in the same statement, so their access
 * to channel facts ends at once. Their person facts stay — they are theirs, shown
 * to no one else, and theirs again if they come back — unless the owner asks to erase them.
 */
import { and, asc, eq, sql } from "drizzle-orm";
import { writeTransaction, type Conn } from "@/db/client";
import { memberships, users, type Role } from "@/db/schema";
import { endSessions } from "@/lib/auth/session-version";
import { displayName, displayNameSql } from "@/lib/person-name";
import { erasePersonFactsIn } from "@/lib/privacy/erase-person-facts";
import { recordAudit, type AuditActor } from "./audit";
import { issueInvite } from "./invites";

/** A person as the workspace's People page lists them (accounts.ts's Person is the account itself). */
export type WorkspacePerson = {
  id: string;
  name: string;
  email: string;
  role: Role;
  joinedAt: string;
};

/** Everyone in the workspace, owners first, then by name. (Invitations still waiting: `listInvites`.) */
export async function listPeople(db: Conn, workspaceId: string): Promise<WorkspacePerson[]> {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(sql`${memberships.role} <> 'owner'`, asc(sql.raw(displayNameSql("users.name", "users.email"))));
  return rows.map((row) => ({ ...row, name: displayName(row) }));
}

export type AddPersonResult =
  /** The link is shown to the owner once, to pass on. */
  | { status: "invited"; email: string; token: string }
  | { status: "already_member"; email: string };

/**
 * Adds a person by email: always an invitation with a link, whether or not the
 * email has an account, so the answer says nothing about other workspaces or
 * people; nobody joins until they accept it themselves (lib/admin/invites.ts).
 * Adding an address again replaces its link. Someone coming back after being
 * removed gets nothing but the membership: their person facts were theirs all
 * along, their channels are not.
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
    const [member] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.workspaceId, workspaceId), eq(users.email, email)))
      .limit(1);
    if (member) return { status: "already_member", email };
    const token = await issueInvite(tx, actor, workspaceId, { email, name: input.name?.trim() || null, role });
    await recordAudit(tx, workspaceId, actor, "member.invite", `${email} as ${role}`);
    return { status: "invited", email, token };
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

export type RemovePersonResult =
  /** `erased`: how many facts kept just for them went with them (eraseTheirFacts), else 0. */
  | { status: "removed"; name: string; erased: number }
  | { status: "last_owner"; name: string }
  | { status: "not_found" };

/**
 * Takes a person out of the workspace and all its channels at once — never the last owner.
 * With `eraseTheirFacts`, the facts agents of this workspace keep just for them go too, in the
 * same transaction (lib/privacy/erase-person-facts.ts: at once, with their history, counted in the audit list).
 */
export async function removePerson(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  userId: string,
  options: { eraseTheirFacts?: boolean } = {},
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
    // Out of every workspace, their sessions have nothing left to open: end them.
    const [stillIn] = await tx.select({ id: memberships.workspaceId }).from(memberships).where(eq(memberships.userId, userId)).limit(1);
    if (!stillIn) await endSessions(tx, userId);
    await recordAudit(tx, workspaceId, actor, "member.remove", `${name} <${before.email}>`);
    const erased = options.eraseTheirFacts
      ? await writeTransaction(tx, (writes) => erasePersonFactsIn(writes, userId, workspaceId, actor, name))
      : [];
    return { status: "removed", name, erased: erased.reduce((sum, agent) => sum + agent.facts, 0) };
  });
}
