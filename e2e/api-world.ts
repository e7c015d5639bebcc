/**
 * A workspace of its own for the API specs that write. The e2e server's database
 * is shared by every spec, and the others count the demo's facts exactly (the
 * home page's meters, the Memory page's lists, the recall preview), so facts the
 * API specs keep or forget go into this workspace — which no demo person belongs
 * to — never into the demo's. It is written straight into the server's database
 * file, the way an owner would set it up, with fresh ids each run.
 */
import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, count } from "drizzle-orm";
import { connect, type Db } from "@/db/client";
import {
  agentKeys,
  agents,
  apiRateLimits,
  channelMembers,
  channels,
  factEvents,
  facts,
  memberships,
  users,
  workspaces,
} from "@/db/schema";
import { generateAgentKey, hashAgentKey } from "@/lib/api/agent-keys";
import { dedupeKey } from "@/lib/memory/fact-text";
import { factTerms } from "@/lib/memory/terms";

export type ApiWorld = {
  db: Db;
  workspaceId: string;
  /** The writing agent and its key. */
  agentId: string;
  key: string;
  /** People: pia reads everything, quinn only the public channel. */
  pia: string;
  quinn: string;
  /** Channel ids: public (pia, quinn), private (pia), a solo DM with pia. */
  plaza: string;
  vault: string;
  dmPia: string;
  close: () => void;
};

function serverDatabaseUrl(): string {
  const url = process.env.MNEMO_E2E_DATABASE_URL;
  if (!url) throw new Error("MNEMO_E2E_DATABASE_URL is not set; run the specs with `npx playwright test`.");
  return url;
}

const suffix = () => randomBytes(4).toString("hex");

export async function createApiWorld(): Promise<ApiWorld> {
  const db = connect(serverDatabaseUrl());
  const s = suffix();
  const workspaceId = `probe-${s}`;
  const pia = `pia-${s}`;
  const quinn = `quinn-${s}`;
  const [plaza, vault, dmPia] = [`plaza-${s}`, `vault-${s}`, `dm-pia-${s}`];
  const agentId = `probe-${s}`;
  const key = generateAgentKey();

  await db.transaction(async (tx) => {
    await tx.insert(workspaces).values({ id: workspaceId, name: `Probe ${s}` });
    await tx.insert(users).values([
      { id: pia, name: "Pia Park", email: `pia@${s}.probe.test` },
      { id: quinn, name: "Quinn Quill", email: `quinn@${s}.probe.test` },
    ]);
    await tx.insert(memberships).values([
      { workspaceId, userId: pia, role: "owner" },
      { workspaceId, userId: quinn, role: "member" },
    ]);
    await tx.insert(channels).values([
      { id: plaza, workspaceId, name: "plaza", kind: "public" },
      { id: vault, workspaceId, name: "vault", kind: "private" },
      { id: dmPia, workspaceId, name: "dm-pia", kind: "dm" },
    ]);
    await tx.insert(channelMembers).values([
      { channelId: plaza, workspaceId, userId: pia },
      { channelId: plaza, workspaceId, userId: quinn },
      { channelId: vault, workspaceId, userId: pia },
      { channelId: dmPia, workspaceId, userId: pia },
    ]);
    await tx.insert(agents).values({ id: agentId, workspaceId, handle: "probe", name: "Probe" });
    await tx.insert(agentKeys).values({
      id: `key-${s}`,
      agentId,
      name: "E2E",
      prefix: key.slice(0, 10),
      hash: hashAgentKey(key),
    });
  });
  return { db, workspaceId, agentId, key, pia, quinn, plaza, vault, dmPia, close: () => db.$client.close() };
}

/** Another agent in the world, with its own key. */
export async function addAgent(world: ApiWorld, handle: string): Promise<{ agentId: string; key: string; keyId: string }> {
  const s = suffix();
  const agentId = `${handle}-${s}`;
  const key = generateAgentKey();
  const keyId = `key-${handle}-${s}`;
  await world.db.transaction(async (tx) => {
    await tx.insert(agents).values({ id: agentId, workspaceId: world.workspaceId, handle: `${handle}-${s}`, name: handle });
    await tx.insert(agentKeys).values({ id: keyId, agentId, name: "E2E", prefix: key.slice(0, 10), hash: hashAgentKey(key) });
  });
  return { agentId, key, keyId };
}

/** Another key for the world's agent. */
export async function addKey(world: ApiWorld): Promise<{ keyId: string; key: string }> {
  const key = generateAgentKey();
  const keyId = `key-extra-${suffix()}`;
  await world.db.transaction((tx) =>
    tx.insert(agentKeys).values({ id: keyId, agentId: world.agentId, name: `Extra ${keyId}`, prefix: key.slice(0, 10), hash: hashAgentKey(key) }),
  );
  return { keyId, key };
}

export async function revokeKey(world: ApiWorld, keyId: string): Promise<void> {
  await world.db.transaction((tx) =>
    tx.update(agentKeys).set({ revokedAt: new Date().toISOString() }).where(eq(agentKeys.id, keyId)),
  );
}

export async function lastUsedOf(world: ApiWorld, keyId: string): Promise<string | null> {
  const [row] = await world.db.select({ at: agentKeys.lastUsedAt }).from(agentKeys).where(eq(agentKeys.id, keyId));
  return row.at;
}

/** Puts a key's request count for the current window at `used`. */
export async function useUpRateLimit(world: ApiWorld, keyId: string, windowStart: number, used: number): Promise<void> {
  await world.db.transaction((tx) =>
    tx
      .insert(apiRateLimits)
      .values({ keyId, windowStart, count: used })
      .onConflictDoUpdate({ target: apiRateLimits.keyId, set: { windowStart, count: used } }),
  );
}

/** Gives an agent `n` channel facts in the world's public channel, as if it had kept them. */
export async function fillMemory(world: ApiWorld, agentId: string, n: number): Promise<void> {
  const at = new Date().toISOString();
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `fact_fill_${agentId}_${i}`,
    agentId,
    workspaceId: world.workspaceId,
    scope: "channel" as const,
    scopeRef: world.plaza,
    scopeLabel: "#plaza",
    body: `Filler fact ${i}.`,
    bodyKey: dedupeKey(`Filler fact ${i}.`),
    sourceKind: "message" as const,
    sourceChannelId: world.plaza,
    createdBy: agentId,
    createdByKind: "agent" as const,
    createdAt: at,
    updatedAt: at,
    // As every writer stores them: ranked recall reads the postings made from them.
    terms: factTerms(`Filler fact ${i}.`, "#plaza", null),
  }));
  for (let i = 0; i < rows.length; i += 200) {
    await world.db.transaction((tx) => tx.insert(facts).values(rows.slice(i, i + 200)));
  }
}

export async function liveFacts(world: ApiWorld, agentId: string): Promise<number> {
  const [row] = await world.db
    .select({ n: count() })
    .from(facts)
    .where(and(eq(facts.agentId, agentId), isNull(facts.forgottenAt)));
  return row.n;
}

/** Every fact of the world as stored, and every event of those facts. */
export async function worldSnapshot(world: ApiWorld) {
  const rows = await world.db.select().from(facts).where(eq(facts.workspaceId, world.workspaceId)).orderBy(facts.seq);
  const ids = rows.map((row) => row.id);
  const events = ids.length
    ? await world.db.select().from(factEvents).where(inArray(factEvents.factId, ids)).orderBy(factEvents.id)
    : [];
  return { facts: rows, events };
}
