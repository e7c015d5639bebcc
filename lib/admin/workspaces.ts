/** Starting a workspace: the workspace and its first owner, in one transaction. */
import { eq } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { memberships, users, workspaces } from "@/db/schema";
import { startWorkspace } from "@/lib/auth/throttle";
import { randomText } from "@/lib/ids";
import { recordAudit, type AuditActor } from "./audit";

/** Workspace ids appear in URLs: lower-case letters, digits and dashes. */
export const WORKSPACE_ID = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
/** 30 random bits: ids of one name seldom meet, and a taken one is simply drawn again. */
const WORKSPACE_ID_SUFFIX = 6;

/**
 * A new workspace id: the name as a slug, then random characters ("Acme Labs" →
 * "acme-labs-k3v9x0"). Always the suffix, so an id tells nothing about which
 * other workspaces exist (counting "acme", "acme-2"… would).
 */
export async function freeWorkspaceId(db: Conn, name: string): Promise<string> {
  const base =
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .slice(0, 32)
      .replace(/^-+|-+$/g, "") || "workspace";
  for (;;) {
    const id = `${base}-${randomText(WORKSPACE_ID_SUFFIX)}`;
    const [taken] = await db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, id)).limit(1);
    if (!taken) return id;
  }
}

/**
 * Creates a workspace owned by an existing person. Returns its id. The audit list
 * names `actor` — the owner themselves, or the operator when the command line did it.
 */
export async function createWorkspace(
  db: Conn,
  owner: { id: string; name: string },
  name: string,
  actor: AuditActor = owner,
): Promise<string> {
  return db.transaction(async (tx) => {
    const id = await freeWorkspaceId(tx, name);
    await tx.insert(workspaces).values({ id, name });
    await tx.insert(memberships).values({ workspaceId: id, userId: owner.id, role: "owner" });
    await recordAudit(tx, id, actor, "workspace.create", name);
    return id;
  });
}

export type StartedWorkspace = { status: "created"; id: string } | { status: "too_many"; waitMs: number };

/**
 * A person starting a workspace from the app: counted against how many they
 * started lately, in the transaction that creates it. (The operator's command
 * line and the first account's sign-up use createWorkspace directly.)
 */
export async function startOwnWorkspace(db: Conn, owner: { id: string; name: string }, name: string, now = Date.now()): Promise<StartedWorkspace> {
  return db.transaction(async (tx): Promise<StartedWorkspace> => {
    const turn = await startWorkspace(tx, owner.id, now);
    if (!turn.allowed) return { status: "too_many", waitMs: turn.waitMs };
    return { status: "created", id: await createWorkspace(tx, owner, name) };
  });
}

/** Whether anyone exists yet: the first-run sign-up is offered only to an empty database. */
export async function hasAnyone(db: Conn): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return Boolean(row);
}
