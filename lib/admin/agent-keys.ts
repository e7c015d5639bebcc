/**
 * Agent keys as owners manage them: create (the key is returned once and never
 * stored), list (name, prefix, created, last used), revoke (at once). Keys belong
 * to one agent of one workspace; every query names both.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { agentKeys, agents } from "@/db/schema";
import { agentKeyPrefix, generateAgentKey, hashAgentKey } from "@/lib/api/agent-keys";
import { newId } from "@/lib/ids";
import { recordAudit, type AuditActor } from "./audit";

export const MAX_KEY_NAME = 80;

/** Creates a key for an agent of the workspace. Returns the key itself — show it once — or null for no such agent. */
export async function createAgentKey(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  agentId: string,
  name: string,
): Promise<{ id: string; key: string; prefix: string } | null> {
  const key = generateAgentKey();
  const id = newId("key");
  return db.transaction(async (tx) => {
    const [agent] = await tx
      .select({ handle: agents.handle })
      .from(agents)
      .where(and(eq(agents.id, agentId), eq(agents.workspaceId, workspaceId)))
      .limit(1);
    if (!agent) return null;
    await tx.insert(agentKeys).values({ id, agentId, name, prefix: agentKeyPrefix(key), hash: hashAgentKey(key) });
    await recordAudit(tx, workspaceId, actor, "key.create", `@${agent.handle}'s key “${name}”`);
    return { id, key, prefix: agentKeyPrefix(key) };
  });
}

/** The keys of an agent of the workspace, newest first, without anything secret. */
export async function listAgentKeys(db: Conn, workspaceId: string, agentId: string) {
  return db
    .select({
      id: agentKeys.id,
      name: agentKeys.name,
      prefix: agentKeys.prefix,
      createdAt: agentKeys.createdAt,
      lastUsedAt: agentKeys.lastUsedAt,
      revokedAt: agentKeys.revokedAt,
    })
    .from(agentKeys)
    .innerJoin(agents, eq(agents.id, agentKeys.agentId))
    .where(and(eq(agentKeys.agentId, agentId), eq(agents.workspaceId, workspaceId)))
    .orderBy(desc(agentKeys.createdAt), desc(agentKeys.id));
}

/** Revokes a key of the workspace; it stops working on the next request. False when there is no such live key. */
export async function revokeAgentKey(db: Conn, actor: AuditActor, workspaceId: string, keyId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [key] = await tx
      .select({ id: agentKeys.id, name: agentKeys.name, handle: agents.handle })
      .from(agentKeys)
      .innerJoin(agents, eq(agents.id, agentKeys.agentId))
      .where(and(eq(agentKeys.id, keyId), eq(agents.workspaceId, workspaceId), isNull(agentKeys.revokedAt)))
      .limit(1);
    if (!key) return false;
    await tx.update(agentKeys).set({ revokedAt: new Date().toISOString() }).where(eq(agentKeys.id, keyId));
    await recordAudit(tx, workspaceId, actor, "key.revoke", `@${key.handle}'s key “${key.name}”`);
    return true;
  });
}
