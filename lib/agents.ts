import { and, eq } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { agents } from "@/db/schema";

export type Agent = { id: string; handle: string; name: string; workspaceId: string };

/** An agent of this workspace by its handle, or null (another workspace's agent is not found either). */
export async function agentByHandle(db: Conn, workspaceId: string, handle: string): Promise<Agent | null> {
  const [agent] = await db
    .select({ id: agents.id, handle: agents.handle, name: agents.name, workspaceId: agents.workspaceId })
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.handle, handle)))
    .limit(1);
  return agent ?? null;
}
