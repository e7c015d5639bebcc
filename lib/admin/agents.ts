/**
 * Agents as owners manage them: create (a handle, unique in the workspace, and a
 * display name), rename, delete. Deleting an agent deletes every fact it keeps,
 * their history and its keys (the foreign keys cascade), so the confirmation
 * names the number and the delete goes ahead only if it is still that number.
 */
import { and, eq, sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { agentKeys, agents, facts } from "@/db/schema";
import { newId } from "@/lib/ids";
import { recordAudit, type AuditActor } from "./audit";

export type AgentSummary = {
  id: string;
  handle: string;
  name: string;
  /** Every fact deleting the agent would delete: live and recently forgotten. */
  facts: number;
  liveKeys: number;
};

function selectSummaries(db: Conn) {
  return db
    .select({
      id: agents.id,
      handle: agents.handle,
      name: agents.name,
      // Spelled out: inside a select list Drizzle would print the column without its table.
      facts: sql<number>`(SELECT count(*) FROM facts f WHERE f.agent_id = agents.id)`,
      liveKeys: sql<number>`(SELECT count(*) FROM agent_keys k WHERE k.agent_id = agents.id AND k.revoked_at IS NULL)`,
    })
    .from(agents);
}

const toSummary = (row: AgentSummary): AgentSummary => ({ ...row, facts: Number(row.facts), liveKeys: Number(row.liveKeys) });

/** The workspace's agents, by name, with what deleting each would lose. */
export async function listAgents(db: Conn, workspaceId: string): Promise<AgentSummary[]> {
  const rows = await selectSummaries(db).where(eq(agents.workspaceId, workspaceId)).orderBy(agents.name, agents.handle);
  return rows.map(toSummary);
}

/** One agent of the workspace by handle, with the same counts, or null. */
export async function agentSummary(db: Conn, workspaceId: string, handle: string): Promise<AgentSummary | null> {
  const [row] = await selectSummaries(db)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.handle, handle)))
    .limit(1);
  return row ? toSummary(row) : null;
}

async function handleTaken(tx: Conn, workspaceId: string, handle: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.workspaceId, workspaceId), eq(agents.handle, handle)))
    .limit(1);
  return Boolean(row);
}

export type CreateAgentResult = { status: "created"; id: string; handle: string } | { status: "handle_taken" };

export async function createAgent(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  input: { handle: string; name: string },
): Promise<CreateAgentResult> {
  const handle = input.handle.toLowerCase();
  return db.transaction(async (tx) => {
    if (await handleTaken(tx, workspaceId, handle)) return { status: "handle_taken" };
    const id = newId("agent");
    await tx.insert(agents).values({ id, workspaceId, handle, name: input.name });
    await recordAudit(tx, workspaceId, actor, "agent.create", `@${handle} (${input.name})`);
    return { status: "created", id, handle };
  });
}

async function agentOf(tx: Conn, workspaceId: string, agentId: string) {
  const [row] = await tx
    .select({ handle: agents.handle, name: agents.name })
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.workspaceId, workspaceId)))
    .limit(1);
  return row ?? null;
}

export async function renameAgent(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  agentId: string,
  name: string,
): Promise<{ status: "changed" | "unchanged" | "not_found" }> {
  return db.transaction(async (tx) => {
    const agent = await agentOf(tx, workspaceId, agentId);
    if (!agent) return { status: "not_found" };
    if (agent.name === name) return { status: "unchanged" };
    await tx.update(agents).set({ name }).where(eq(agents.id, agentId));
    await recordAudit(tx, workspaceId, actor, "agent.rename", `@${agent.handle}: ${agent.name} → ${name}`);
    return { status: "changed" };
  });
}

export type DeleteAgentResult =
  | { status: "deleted"; name: string; facts: number }
  /** It keeps a different number of facts than the confirmation said: ask again. */
  | { status: "changed"; facts: number }
  | { status: "not_found" };

/** Deletes an agent with its facts, their history and its keys, if it still keeps `expectedFacts` facts. */
export async function deleteAgent(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  agentId: string,
  expectedFacts: number,
): Promise<DeleteAgentResult> {
  return db.transaction(async (tx) => {
    const agent = await agentOf(tx, workspaceId, agentId);
    if (!agent) return { status: "not_found" };
    const [{ n }] = await tx.select({ n: sql<number>`count(*)` }).from(facts).where(eq(facts.agentId, agentId));
    const count = Number(n);
    if (count !== expectedFacts) return { status: "changed", facts: count };
    const [{ keys }] = await tx
      .select({ keys: sql<number>`count(*)` })
      .from(agentKeys)
      .where(eq(agentKeys.agentId, agentId));
    await tx.delete(agents).where(and(eq(agents.id, agentId), eq(agents.workspaceId, workspaceId)));
    const lost = `${count} ${count === 1 ? "fact" : "facts"}, ${Number(keys)} ${Number(keys) === 1 ? "key" : "keys"}`;
    await recordAudit(tx, workspaceId, actor, "agent.delete", `@${agent.handle} (${agent.name}) with ${lost}`);
    return { status: "deleted", name: agent.name, facts: count };
  });
}
