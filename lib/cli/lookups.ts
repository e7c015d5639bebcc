/** Finding what a command names, with one clear line when it is not there. */
import { eq } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { workspaces } from "@/db/schema";
import { agentByHandle } from "@/lib/agents";
import { CliError } from "./command";

export async function requireWorkspace(db: Conn, id: string): Promise<{ id: string; name: string }> {
  const [workspace] = await db
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(eq(workspaces.id, id))
    .limit(1);
  if (!workspace) throw new CliError(`There is no workspace with the id "${id}".`);
  return workspace;
}

export async function requireAgent(db: Conn, workspaceId: string, handle: string) {
  const agent = await agentByHandle(db, workspaceId, handle.replace(/^@/, ""));
  if (!agent) throw new CliError(`There is no agent @${handle.replace(/^@/, "")} in the workspace "${workspaceId}".`);
  return agent;
}
