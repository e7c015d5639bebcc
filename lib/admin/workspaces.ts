/** Starting a workspace: the workspace and its first owner, in one transaction. */
import { eq } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { memberships, users, workspaces } from "@/db/schema";
import { recordAudit, type AuditActor } from "./audit";

/** Workspace ids appear in URLs: lower-case letters, digits and dashes. */
export const WORKSPACE_ID = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** A free workspace id made from a name ("Acme Labs" → "acme-labs", then "acme-labs-2"…). */
export async function freeWorkspaceId(db: Conn, name: string): Promise<string> {
  const base =
    name
      .normalize("NFKD")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 32) || "workspace";
  for (let n = 1; ; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
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

/** Whether anyone exists yet: the first-run sign-up is offered only to an empty database. */
export async function hasAnyone(db: Conn): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).limit(1);
  return Boolean(row);
}
