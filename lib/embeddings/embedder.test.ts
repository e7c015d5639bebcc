/**
 * Vectors get made and stay true to the text: the server's loop embeds what is
 * kept (and carries on after the provider fails), a fact corrected while its
 * vector was being made stays due, and `npm run mnemo -- reindex` embeds
 * everything, again for a new model, and says clearly when it cannot.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { readAll, readOne } from "@/db/client";
import { DEMO_FACTS } from "@/db/seed";
import { correctFact, remember } from "@/lib/memory/writes";
import { startEmbeddingsServer, testVector, type EmbeddingsServer } from "@/lib/testing/embeddings-server";
import { runMnemo } from "@/lib/testing/run-cli";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { embedDueBatch, nudgeEmbedder, startEmbedder } from "./embedder";
import { embeddingsSettings, type EmbeddingsSettings } from "./settings";

const t = tempDbForTests({ demo: true, each: true });
let server: EmbeddingsServer;
let settings: EmbeddingsSettings;
const DEMO_COUNT = Object.keys(DEMO_FACTS).length;

beforeAll(async () => {
  server = await startEmbeddingsServer();
  process.env.MNEMO_EMBEDDINGS_URL = server.url;
  process.env.MNEMO_EMBEDDINGS_MODEL = "test-model";
  settings = embeddingsSettings()!;
});
afterAll(async () => {
  delete process.env.MNEMO_EMBEDDINGS_URL;
  delete process.env.MNEMO_EMBEDDINGS_MODEL;
  await server.close();
});
beforeEach(() => {
  server.mode = "ok";
});

const vectors = () =>
  readAll<{ id: string; model: string; embedding: string }>(
    t.db,
    "SELECT fact_id AS id, model, vector_extract(embedding) AS embedding FROM fact_vectors ORDER BY fact_id",
    [],
  );
const due = () => readAll<{ id: string }>(t.db, "SELECT fact_id AS id FROM fact_vectors_due ORDER BY fact_id", []);

async function keep(body: string): Promise<string> {
  const result = await remember(t.db, {
    agentId: "scout",
    workspaceId: "acme",
    body,
    scope: "workspace",
    scopeRef: "",
    scopeLabel: null,
    source: { kind: "message", ref: null, label: null, channelId: null },
    by: { kind: "agent", id: "scout", name: "Scout" },
    pinned: false,
  });
  if (result.status !== "created") throw new Error(result.status);
  return result.fact.id;
}

describe("embedDueBatch", () => {
  it("stores each due fact's vector as the provider made it, and empties the queue", async () => {
    expect(await due()).toHaveLength(DEMO_COUNT);
    expect(await embedDueBatch(t.db, settings)).toEqual({ status: "done", picked: DEMO_COUNT, embedded: DEMO_COUNT });
    expect(await due()).toEqual([]);
    const row = await readOne<{ body: string }>(t.db, "SELECT body FROM facts WHERE id = ?", [(await vectors())[0].id]);
    const stored = JSON.parse((await vectors())[0].embedding) as number[];
    // Stored as float32 and read back as text with six decimals: equal to within 1e-6, not 5e-7.
    testVector(row!.body).forEach((value, i) => expect(Math.abs(stored[i] - value)).toBeLessThan(1e-6));
    expect(await embedDueBatch(t.db, settings)).toEqual({ status: "done", picked: 0, embedded: 0 });
  });

  it("renews the agents' memory versions, so no recall answer kept before the vectors is served again", async () => {
    const versions = () => readAll<{ id: string; v: number }>(t.db, "SELECT id, memory_version AS v FROM agents ORDER BY id", []);
    const before = await versions();
    await embedDueBatch(t.db, settings);
    const after = await versions();
    for (const [i, agent] of before.entries()) expect(after[i].v, agent.id).toBeGreaterThan(agent.v);
  });

  it("keeps no vector for a fact corrected while it was being embedded: it stays due", async () => {
    const [{ id }] = await readAll<{ id: string }>(t.db, "SELECT id FROM facts WHERE body = ?", [DEMO_FACTS.refunds]);
    server.mode = "slow";
    server.slowMs = 1_500;
    const before = server.requests;
    const batch = embedDueBatch(t.db, settings);
    await vi.waitFor(() => expect(server.requests).toBe(before + 1));
    const max = { workspaceId: "acme", id: "max", name: "Max Mills", handle: "max" };
    expect((await correctFact(t.db, max, "scout", id, 1, "Refunds over $900 need a director.")).status).toBe("corrected");
    expect(await batch).toEqual({ status: "done", picked: DEMO_COUNT, embedded: DEMO_COUNT - 1 });
    expect(await due()).toEqual([{ id }]);
    expect((await vectors()).map((v) => v.id)).not.toContain(id);
  });

  it("says why when the provider fails, and changes nothing", async () => {
    server.mode = "error-status";
    expect(await embedDueBatch(t.db, settings)).toEqual({ status: "failed", reason: "the embeddings provider answered HTTP 500" });
    expect(await due()).toHaveLength(DEMO_COUNT);
    expect(await vectors()).toEqual([]);
  });
});

describe("the server's loop", () => {
  it("embeds what is kept, and carries on once a failed provider is back", async () => {
    const stop = startEmbedder(() => t.db);
    try {
      await vi.waitFor(async () => expect(await due()).toEqual([]), { timeout: 10_000 });
      const fresh = await keep("Deploys are frozen during the holidays.");
      nudgeEmbedder();
      await vi.waitFor(async () => expect((await vectors()).map((v) => v.id)).toContain(fresh), { timeout: 10_000 });

      server.mode = "down";
      const before = server.requests;
      const later = await keep("The office closes at six.");
      nudgeEmbedder();
      await vi.waitFor(() => expect(server.requests).toBeGreaterThan(before), { timeout: 10_000 });
      server.mode = "ok";
      await vi.waitFor(async () => expect((await vectors()).map((v) => v.id)).toContain(later), { timeout: 20_000 });
    } finally {
      await stop();
    }
  });
});

describe("npm run mnemo -- reindex", () => {
  async function reindex(env: Record<string, string | undefined>) {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete process.env[name];
    try {
      return await runMnemo(["reindex"], { url: t.url });
    } finally {
      for (const name of Object.keys(env)) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  }

  it("embeds every fact, and again every fact for a new model", async () => {
    const first = await reindex({});
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^${DEMO_COUNT} facts to embed with test-model \\(0 newly queued\\)\\.\n`));
    expect(first.stdout).toMatch(new RegExp(`Embedded ${DEMO_COUNT} facts with test-model in \\d+\\.\\d s\\.\n$`));
    expect(await due()).toEqual([]);
    expect((await vectors()).map((v) => v.model)).toEqual(Array(DEMO_COUNT).fill("test-model"));

    const again = await reindex({});
    expect(again.stdout).toMatch(/^0 facts to embed with test-model \(0 newly queued\)\.\nEmbedded 0 facts/);

    const other = await reindex({ MNEMO_EMBEDDINGS_MODEL: "other-model" });
    expect(other.code).toBe(0);
    expect(other.stdout).toContain(`${DEMO_COUNT} facts to embed with other-model (${DEMO_COUNT} newly queued).`);
    expect((await vectors()).map((v) => v.model)).toEqual(Array(DEMO_COUNT).fill("other-model"));
  });

  it("says so in one line, exit 1, without a provider, with half a provider, or when it fails", async () => {
    const none = await reindex({ MNEMO_EMBEDDINGS_URL: undefined, MNEMO_EMBEDDINGS_MODEL: undefined });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^mnemo reindex: No embeddings provider is set: set MNEMO_EMBEDDINGS_URL and MNEMO_EMBEDDINGS_MODEL/);

    const half = await reindex({ MNEMO_EMBEDDINGS_MODEL: undefined });
    expect(half.code).toBe(1);
    expect(half.stderr).toMatch(/^mnemo reindex: MNEMO_EMBEDDINGS_MODEL is not valid: required when MNEMO_EMBEDDINGS_URL is set/);

    server.mode = "down";
    const down = await reindex({});
    expect(down.code).toBe(1);
    expect(down.stderr.trim().split("\n")).toEqual([
      `mnemo reindex: Embedded 0 of ${DEMO_COUNT} facts, then the embeddings provider could not be reached (UND_ERR_SOCKET). Run reindex again once it answers; a running server also retries on its own.`,
    ]);
    expect(await due()).toHaveLength(DEMO_COUNT);
  });
});
