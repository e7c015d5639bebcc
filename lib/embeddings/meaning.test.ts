/**
 * Meaning never widens the rules, and follows every change: nearestByMeaning on the
 * demo plus facts that would tempt it (another agent's, a forgotten one, a channel
 * elsewhere, a vector of another model), against a real local provider.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { readAll, readOne } from "@/db/client";
import { DEMO_FACTS, DEMO_PEOPLE } from "@/db/seed";
import { derivePlace, PlaceError } from "@/lib/memory/place";
import { recallable, type Scope } from "@/lib/memory/rules";
import { recallBranches } from "@/lib/memory/store";
import { agentForget, correctFact, purgeFact, remember } from "@/lib/memory/writes";
import { startEmbeddingsServer, type EmbeddingsServer, type EmbeddingsServerMode } from "@/lib/testing/embeddings-server";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { drainDue } from "./embedder";
import { nearestByMeaning, nearestSql } from "./meaning";
import { COOLDOWN_MS } from "./provider";
import { embeddingsSettings } from "./settings";

const t = tempDbForTests({ demo: true, each: true });
let server: EmbeddingsServer;
const ENV = ["MNEMO_EMBEDDINGS_URL", "MNEMO_EMBEDDINGS_MODEL", "MNEMO_EMBEDDINGS_TIMEOUT_MS"] as const;
const SCOUT = { kind: "agent", id: "scout", name: "Scout" } as const;
const OLIVIA = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };

beforeAll(async () => {
  server = await startEmbeddingsServer();
  process.env.MNEMO_EMBEDDINGS_URL = server.url;
  process.env.MNEMO_EMBEDDINGS_MODEL = "test-model";
  process.env.MNEMO_EMBEDDINGS_TIMEOUT_MS = "300";
});
afterAll(async () => {
  for (const name of ENV) delete process.env[name];
  await server.close();
});
beforeEach(() => {
  server.mode = "ok";
});
afterEach(() => {
  vi.useRealTimers();
});

async function keep(
  agentId: string,
  workspaceId: string,
  scope: Scope,
  scopeRef: string,
  body: string,
  proposal: "setting" | null = null,
): Promise<string> {
  const by = agentId === "scout" ? SCOUT : ({ kind: "agent", id: "echo", name: "Echo" } as const);
  const result = await remember(t.db, {
    agentId,
    workspaceId,
    body,
    scope,
    scopeRef,
    scopeLabel: null,
    source: { kind: "message", ref: null, label: null, channelId: null },
    by,
    pinned: false,
    proposal,
  });
  if (result.status !== "created") throw new Error(result.status);
  return result.fact.id;
}

async function embedAll() {
  const drained = await drainDue(t.db, embeddingsSettings()!);
  expect(drained.failed).toBeNull();
}

async function idOf(body: string): Promise<string> {
  const row = await readOne<{ id: string }>(t.db, "SELECT id FROM facts WHERE body = ?", [body]);
  return row!.id;
}

async function nearest(channel: string, asker: string, question: string, k = 100) {
  const { place } = await derivePlace(t.db, "acme", channel, asker);
  const meaning = await nearestByMeaning(t.db, "scout", "acme", recallBranches(place), question, k);
  if (meaning.status !== "ok") throw new Error(JSON.stringify(meaning));
  return meaning.nearest;
}

it("is off when no provider is configured", async () => {
  const url = process.env.MNEMO_EMBEDDINGS_URL;
  const model = process.env.MNEMO_EMBEDDINGS_MODEL;
  delete process.env.MNEMO_EMBEDDINGS_URL;
  delete process.env.MNEMO_EMBEDDINGS_MODEL;
  try {
    expect(await nearestByMeaning(t.db, "scout", "acme", [{ scope: "workspace", ref: "" }], "anything")).toEqual({ status: "off" });
  } finally {
    process.env.MNEMO_EMBEDDINGS_URL = url;
    process.env.MNEMO_EMBEDDINGS_MODEL = model;
  }
});

it("finds by meaning what shares no word: in dm-ana, the language to answer in is Ana's Portuguese", async () => {
  await embedAll();
  const found = await nearest("dm-ana", "ana", "what language should I answer in");
  expect(found[0]).toMatchObject({ id: await idOf(DEMO_FACTS.anaPerson) });
  expect(found[0].similarity).toBeGreaterThan(found[1].similarity);
  // Nearest first, at most k.
  expect(found.map((f) => f.similarity)).toEqual([...found.map((f) => f.similarity)].sort((a, b) => b - a));
  expect(await nearest("dm-ana", "ana", "what language should I answer in", 2)).toEqual(found.slice(0, 2));
});

it("never returns a fact outside the place's branches, another agent's, a forgotten one, a proposal, or another model's", async () => {
  const tempting = "Answer in Portuguese, refunds need approval, releases ship Thursdays.";
  await keep("echo", "globex", "workspace", "", `Globex: ${tempting}`);
  await keep("scout", "acme", "channel", "leadership", `Leadership: ${tempting}`);
  await keep("scout", "acme", "person", "max", `Max: ${tempting}`);
  const forgotten = await keep("scout", "acme", "workspace", "", `Forgotten: ${tempting}`);
  const otherModel = await keep("scout", "acme", "workspace", "", `Old model: ${tempting}`);
  const proposal = await keep("scout", "acme", "workspace", "", `Proposed: ${tempting}`, "setting");
  await embedAll();
  // The embedder may embed a proposal (it is ready the moment it is approved); nearest never returns it.
  expect(await readAll(t.db, "SELECT 1 FROM fact_vectors WHERE fact_id = ?", [proposal])).toHaveLength(1);
  const { place: general } = await derivePlace(t.db, "acme", "general", "olivia");
  expect(await agentForget(t.db, SCOUT, forgotten, general)).toBe("forgotten");
  await t.db.$client.execute({ sql: "UPDATE fact_vectors SET model = 'older-model' WHERE fact_id = ?", args: [otherModel] });

  // What may be found: the pure rule over every fact, with a vector of this model.
  type Row = {
    id: string;
    agentId: string;
    workspaceId: string;
    scope: Scope;
    scopeRef: string;
    live: number;
    model: string | null;
    proposedAt: string | null;
  };
  const rows = await readAll<Row>(
    t.db,
    `SELECT f.id, f.agent_id AS agentId, f.workspace_id AS workspaceId, f.scope, f.scope_ref AS scopeRef,
        f.forgotten_at IS NULL AS live, v.model, f.proposed_at AS proposedAt FROM facts f LEFT JOIN fact_vectors v ON v.fact_id = f.id`,
    [],
  );
  const channels = await readAll<{ id: string }>(t.db, "SELECT id FROM channels WHERE workspace_id = 'acme'", []);
  let places = 0;
  for (const channel of channels) {
    for (const person of DEMO_PEOPLE.filter((p) => p.workspace === "acme")) {
      let place;
      try {
        ({ place } = await derivePlace(t.db, "acme", channel.id, person.id));
      } catch (error) {
        if (error instanceof PlaceError) continue;
        throw error;
      }
      places++;
      const allowed = rows
        .filter((r) => r.agentId === "scout" && r.live && r.model === "test-model" && recallable(r, place))
        .map((r) => r.id)
        .sort();
      for (const question of [tempting, "what language should I answer in", DEMO_FACTS.budget]) {
        const found = await nearest(channel.id, person.id, question);
        expect(found.map((f) => f.id).sort(), `${channel.id} asked by ${person.id}`).toEqual(allowed);
      }
    }
  }
  expect(places).toBeGreaterThan(10);
  expect((await nearest("general", "olivia", tempting)).map((f) => f.id)).not.toContain(proposal);
  const leadershipId = await idOf(DEMO_FACTS.budget);
  expect((await nearest("general", "max", DEMO_FACTS.budget)).map((f) => f.id)).not.toContain(leadershipId);
  expect((await nearest("leadership", "max", DEMO_FACTS.budget))[0].id).toBe(leadershipId);
});

it("a corrected fact loses its old vector at once and is found by its new meaning once embedded", async () => {
  await embedAll();
  const id = await idOf(DEMO_FACTS.refunds);
  const maxActor = { workspaceId: "acme", id: "max", name: "Max Mills", handle: "max" };
  const corrected = await correctFact(t.db, maxActor, "scout", id, 1, "Standup meeting is at 9:30 on Monday.");
  expect(corrected.status).toBe("corrected");

  expect(await readAll(t.db, "SELECT 1 FROM fact_vectors WHERE fact_id = ?", [id])).toEqual([]);
  expect(await readAll(t.db, "SELECT fact_id FROM fact_vectors_due", [])).toEqual([{ fact_id: id }]);
  expect((await nearest("support", "ana", "refund approval")).map((f) => f.id)).not.toContain(id);

  await embedAll();
  expect((await nearest("support", "ana", "when is the sync call"))[0].id).toBe(id);
  expect(await readAll(t.db, "SELECT fact_id FROM fact_vectors_due", [])).toEqual([]);
});

it("purging a fact deletes its vector", async () => {
  await embedAll();
  const id = await idOf(DEMO_FACTS.sso);
  const { place } = await derivePlace(t.db, "acme", "general", "olivia");
  expect(await agentForget(t.db, SCOUT, id, place)).toBe("forgotten");
  expect(await readAll(t.db, "SELECT 1 FROM fact_vectors WHERE fact_id = ?", [id])).toHaveLength(1);
  expect((await purgeFact(t.db, OLIVIA, "scout", id)).status).toBe("purged");
  expect(await readAll(t.db, "SELECT 1 FROM fact_vectors WHERE fact_id = ?", [id])).toEqual([]);
});

describe("a provider that fails", () => {
  it.each<EmbeddingsServerMode>(["down", "slow", "error-status", "not-json", "not-finite", "wrong-count", "redirect"])(
    "%s: failed with a reason instead of waiting or throwing; back up, ok again",
    async (mode) => {
      vi.useFakeTimers({ toFake: ["Date"] });
      await embedAll();
      const branches = [{ scope: "workspace" as const, ref: "" }];
      server.mode = mode;
      server.slowMs = 3_000;
      const question = `releases, asked while ${mode}`;
      const meaning = await nearestByMeaning(t.db, "scout", "acme", branches, question);
      expect(meaning).toMatchObject({ status: "failed", reason: expect.stringMatching(/^the embeddings provider /) });

      server.mode = "ok";
      // Resting: not asked again at once…
      const before = server.requests;
      expect((await nearestByMeaning(t.db, "scout", "acme", branches, question)).status).toBe("failed");
      expect(server.requests).toBe(before);
      // …then back.
      vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
      const back = await nearestByMeaning(t.db, "scout", "acme", branches, question);
      expect(back).toMatchObject({ status: "ok", nearest: [{ id: await idOf(DEMO_FACTS.releases) }, expect.anything()] });
    },
  );
});

it("reads each branch as one range of facts_recall_idx, never the whole workspace or every vector", async () => {
  await t.db.$client.execute("ANALYZE");
  for (const branches of [2, 3]) {
    const plan = await readAll<{ detail: string }>(
      t.db,
      `EXPLAIN QUERY PLAN ${nearestSql(branches)}`,
      ["[1,0]", "scout", "acme", ...Array(branches * 2).fill("x"), "test-model", 8, 40],
    );
    const details = plan.map((row) => row.detail);
    expect(details[0]).toBe("SEARCH facts USING INDEX facts_recall_idx (agent_id=? AND scope=? AND scope_ref=?)");
    expect(details.filter((detail) => detail.startsWith("SCAN") && !detail.includes("CONSTANT ROWS"))).toEqual([]);
  }
});
