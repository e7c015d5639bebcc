/**
 * Recall with an embeddings provider, end to end through recallForAgent: with the
 * real local test provider answering, ranking is "question" and meaning finds facts
 * that share no word with the question, still only among the facts the place allows;
 * when it is down, slow or answers garbage, recall answers by words and says so,
 * without an error; once it has rested and is back, meaning is used again.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { readAll } from "@/db/client";
import { DEMO_FACTS, seedDemo } from "@/db/seed";
import { drainDue } from "@/lib/embeddings/embedder";
import { COOLDOWN_MS } from "@/lib/embeddings/provider";
import { embeddingsSettings } from "@/lib/embeddings/settings";
import { derivePlace } from "@/lib/memory/place";
import { recallable } from "@/lib/memory/rules";
import { startEmbeddingsServer, type EmbeddingsServer, type EmbeddingsServerMode } from "@/lib/testing/embeddings-server";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import type { RecallInput, RecallOutput } from "@/lib/validation/agent-api";
import { recallForAgent } from "./agent-memory";
import { authenticateAgent } from "./auth";
import { RecallCache, recallAnswer, recallOutputOf } from "./recall-cache";

const SCOUT_KEY = `mnemo_${"m".repeat(40)}`;
const ENV = ["MNEMO_EMBEDDINGS_URL", "MNEMO_EMBEDDINGS_MODEL", "MNEMO_EMBEDDINGS_TIMEOUT_MS"] as const;
const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));

let server: EmbeddingsServer;
let t: TempDb;
let asked = 0;

beforeAll(async () => {
  server = await startEmbeddingsServer();
  process.env.MNEMO_EMBEDDINGS_URL = server.url;
  process.env.MNEMO_EMBEDDINGS_MODEL = "test-model";
  // Short, as in production, yet long enough that a loopback answer on a busy two-core machine never misses it: a
  // miss rests the provider for COOLDOWN_MS, and the next tests would rank by words (300 ms did miss under load).
  process.env.MNEMO_EMBEDDINGS_TIMEOUT_MS = "1500";
});
afterAll(async () => {
  for (const name of ENV) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  await server.close();
});
beforeEach(async () => {
  server.mode = "ok";
  t = await createTempDb();
  await seedDemo(t.db, { scout: SCOUT_KEY });
  const drained = await drainDue(t.db, embeddingsSettings()!);
  expect(drained).toEqual({ embedded: 9, failed: null });
});
afterEach(() => {
  vi.useRealTimers();
  t.close();
});

const admit = () =>
  authenticateAgent(t.db, new Request("http://mnemo.test/api/v1/recall", { headers: { authorization: `Bearer ${SCOUT_KEY}` } }));
const recallHere = async (input: RecallInput, options?: { meaning?: boolean }) => recallForAgent(t.db, await admit(), input, options);
/** The provider keeps each question's vector: a question never asked before, so the provider is really asked. */
const fresh = (question: string) => `${question} (${++asked})`;
const byMeaning = (answer: RecallOutput) => answer.facts.filter((fact) => fact.why.matched.includes("meaning")).map((fact) => fact.body);

/** Every fact in the answer is one the pure rule allows in its place. */
async function expectAllowed(answer: RecallOutput, channel: string, asker: string) {
  const { place } = await derivePlace(t.db, "acme", channel, asker);
  const rows = await readAll<{ id: string; workspace_id: string; scope: string; scope_ref: string }>(
    t.db,
    "SELECT id, workspace_id, scope, scope_ref FROM facts WHERE agent_id = 'scout' AND forgotten_at IS NULL",
    [],
  );
  const allowed = rows.filter((f) => recallable({ workspaceId: f.workspace_id, scope: f.scope, scopeRef: f.scope_ref }, place)).map((f) => f.id);
  expect(answer.facts.map((fact) => fact.id).sort()).toEqual(allowed.sort());
}

describe("the provider answering", () => {
  it("ranks by question with meaning: 'what language should I answer in' finds Ana's Portuguese in her DM", async () => {
    const answer = await recallHere({ channel: "dm-ana", asker: "ana", q: "what language should I answer in" });
    expect(answer.ranking).toBe("question");
    expect(byMeaning(answer)).toContain(DEMO_FACTS.anaPerson);
    const ana = answer.facts.find((fact) => fact.body === DEMO_FACTS.anaPerson)!;
    expect(ana.why.score).toBeGreaterThan(0);
    // Right after the pinned workspace fact: meaning put it ahead of the newer SSO fact.
    expect(answer.facts.map((fact) => fact.body).slice(0, 2)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.anaPerson]);
    await expectAllowed(answer, "dm-ana", "ana");
  });

  it("never reaches past the place, however close the meaning", async () => {
    // Each question is nearest to a fact of another place; each answer is exactly what the place allows.
    const asks: [string, string, string][] = [
      ["support", "ana", "Which language does Ana prefer for replies?"],
      ["general", "max", "refund reimbursement manager permission"],
      ["dm-max", "max", "Q3 budget freeze October"],
      ["group-max-ana", "ana", "Portuguese replies, Gus acronyms"],
    ];
    for (const [channel, asker, q] of asks) {
      const answer = await recallHere({ channel, asker, q });
      expect(answer.ranking).toBe("question");
      await expectAllowed(answer, channel, asker);
    }
  });

  it("ranks by words alone when asked to (the quality bench's comparison), with the provider up", async () => {
    const before = server.requests;
    const answer = await recallHere({ channel: "dm-ana", asker: "ana", q: fresh("what language should I answer in") }, { meaning: false });
    expect(answer.ranking).toBe("question (words only)");
    expect(byMeaning(answer)).toEqual([]);
    expect(server.requests).toBe(before);
  });
});

describe("the provider failing", () => {
  const MODES: EmbeddingsServerMode[] = ["down", "slow", "error-status", "not-json", "wrong-count", "wrong-dimensions", "not-finite", "redirect"];

  it.each(MODES)("%s: words only, said so, no error; after the rest and back up, meaning again", async (mode) => {
    vi.useFakeTimers({ toFake: ["Date"] });
    // Known to work first, so the question embedder knows the model's dimension.
    expect((await recallHere({ channel: "support", asker: "ana", q: fresh("refund approval") })).ranking).toBe("question");

    server.mode = mode;
    server.slowMs = 5_000; // far beyond the 1.5 s timeout: recall must not wait for it
    const answer = await recallHere({ channel: "support", asker: "ana", q: fresh("Who has to approve a big refund?") });
    expect(answer.ranking).toBe("question (words only)");
    expect(byMeaning(answer)).toEqual([]);
    // Still ranked: by its words, the refunds rule right after the pinned fact.
    expect(answer.facts.map((fact) => fact.body).slice(0, 2)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.refunds]);
    expect(answer.facts[1].why.matched).toEqual(expect.arrayContaining(["approve", "refund"]));
    await expectAllowed(answer, "support", "ana");

    // Back up, but resting: words only still, without asking it.
    server.mode = "ok";
    const requests = server.requests;
    expect((await recallHere({ channel: "support", asker: "ana", q: fresh("refund approval") })).ranking).toBe("question (words only)");
    expect(server.requests).toBe(requests);
    // After the rest: meaning again.
    vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
    const back = await recallHere({ channel: "dm-ana", asker: "ana", q: fresh("what language should I answer in") });
    expect(back.ranking).toBe("question");
    expect(byMeaning(back)).toContain(DEMO_FACTS.anaPerson);
  });
});

describe("through the API's kept answers", () => {
  it("an answer made while the provider was down is not kept past its coming back", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const cache = new RecallCache(64 * 2 ** 20);
    const input = { channel: "dm-ana", asker: "ana", q: fresh("what language should I answer in") };
    const ask = async () => recallOutputOf(await recallAnswer(t.db, await admit(), input, cache));
    server.mode = "down";
    expect((await ask()).ranking).toBe("question (words only)");
    server.mode = "ok";
    vi.setSystemTime(Date.now() + COOLDOWN_MS + 1);
    const back = await ask();
    expect(back.ranking).toBe("question");
    expect(byMeaning(back)).toContain(DEMO_FACTS.anaPerson);
  });
});
