/**
 * Agent keys as owners manage them: create (the key is returned once and never
 * stored; its name unique among the agent's live keys; an optional expiry), list
 * (name, prefix, created, last used, expiry), revoke (at once). Keys belong to one
 * agent of one workspace; every query names both.
 */
import { and, desc, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { agentKeys, agents } from "@/db/schema";
import { agentKeyPrefix, generateAgentKey, hashAgentKey } from "@/lib/api/agent-keys";
import { newId } from "@/lib/ids";
import { recordAudit, type AuditActor } from "./audit";

export const MAX_KEY_NAME = 80;

/** A live key of the agent already has this name (compared without case): two keys of one name can't be told apart in the list. */
export class KeyNameTaken extends Error {
  constructor(readonly keyName: string) {
    super(`This agent already has a key named “${keyName}”. Choose another name, or revoke that key first.`);
  }
}

/**
 * Creates a key for an agent of the workspace, working until `expiresAt` (ISO) when
 * given. Returns the key itself — show it once — or null for no such agent; throws
 * KeyNameTaken when a live key (not revoked, not expired) has the name.
 */
export async function createAgentKey(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  agentId: string,
  name: string,
  options: { expiresAt?: string | null; now?: Date } = {},
): Promise<{ id: string; key: string; prefix: string } | null> {
  const key = generateAgentKey();
  const id = newId("key");
  const now = (options.now ?? new Date()).toISOString();
  return db.transaction(async (tx) => {
    const [agent] = await tx
      .select({ handle: agents.handle })
      .from(agents)
      .where(and(eq(agents.id, agentId), eq(agents.workspaceId, workspaceId)))
      .limit(1);
    if (!agent) return null;
    const [taken] = await tx
      .select({ id: agentKeys.id })
      .from(agentKeys)
      .where(
        and(
          eq(agentKeys.agentId, agentId),
          sql`lower(${agentKeys.name}) = lower(${name})`,
          isNull(agentKeys.revokedAt),
          or(isNull(agentKeys.expiresAt), gt(agentKeys.expiresAt, now)),
        ),
      )
      .limit(1);
    if (taken) throw new KeyNameTaken(name);
    // An expired key of this name has not worked since its expiry: it is revoked as of then, so the
    // unique index on names of keys not revoked (agent_keys_live_name_idx) lets the name be used again.
    // The log says so, as it does for every key revoked: the owner's list shows it revoked from now on.
    const retired = await tx
      .update(agentKeys)
      .set({ revokedAt: sql`${agentKeys.expiresAt}` })
      .where(
        and(
          eq(agentKeys.agentId, agentId),
          sql`lower(${agentKeys.name}) = lower(${name})`,
          isNull(agentKeys.revokedAt),
          lte(agentKeys.expiresAt, now),
        ),
      )
      .returning({ name: agentKeys.name, expiresAt: agentKeys.expiresAt });
    for (const old of retired) {
      // Only keys with an expiry that has passed are retired.
      const expired = old.expiresAt!.slice(0, 10);
      await recordAudit(tx, workspaceId, actor, "key.revoke", `@${agent.handle}'s key “${old.name}” (expired ${expired}; its name is used again)`);
    }
    const expiresAt = options.expiresAt ?? null;
    try {
      await tx.insert(agentKeys).values({ id, agentId, name, prefix: agentKeyPrefix(key), hash: hashAgentKey(key), expiresAt });
    } catch (error) {
      // Another key of this name was made between the check and this write.
      if (breaksLiveNameIndex(error)) throw new KeyNameTaken(name);
      throw error;
    }
    const until = expiresAt ? `, expiring ${expiresAt.slice(0, 10)}` : "";
    await recordAudit(tx, workspaceId, actor, "key.create", `@${agent.handle}'s key “${name}”${until}`);
    return { id, key, prefix: agentKeyPrefix(key) };
  });
}

/** The database refused a key for agent_keys_live_name_idx (the error may come wrapped by the driver). */
function breaksLiveNameIndex(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (/UNIQUE constraint failed/.test(e.message) && e.message.includes("agent_keys_live_name_idx")) return true;
  }
  return false;
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
      expiresAt: agentKeys.expiresAt,
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
