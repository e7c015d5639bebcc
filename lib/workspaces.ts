/** What the signed-in shell lists: a person's workspaces and each one's agents. */
import { asc, eq } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { memberships, workspaces } from "@/db/schema";
import { agentsWithCounts } from "@/lib/memory/store";

export async function workspacesOf(db: Conn, userId: string) {
  const rows = await db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.name));
  return Promise.all(rows.map(async (row) => ({ ...row, agents: await agentsWithCounts(db, row.id) })));
}
