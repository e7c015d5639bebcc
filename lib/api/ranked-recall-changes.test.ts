/**
 * Ranked recall follows every change at once, through the API's own path (the key
 * admitted with its versions, the kept answer, the kept word indexes): a fact
 * forgotten, purged, corrected, unpinned or newly remembered is seen by the very
 * next request with a question — also when another client on the same file (another
 * server process, the CLI, plain SQL) made the change.
 */
import { createClient, type Client } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readOne } from "@/db/client";
import { DEMO_FACTS, seedDemo } from "@/db/seed";
import { factTerms } from "@/lib/memory/terms";
import { agentForget, correctFact, forgetFact, purgeFact, setPinned } from "@/lib/memory/writes";
import { derivePlace } from "@/lib/memory/place";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import type { RecallInput, RecallOutput } from "@/lib/validation/agent-api";
import { recallForAgent, rememberForAgent } from "./agent-memory";
import { authenticateAgent, type AgentContext } from "./auth";
import { RecallCache, recallAnswer, recallOutputOf } from "./recall-cache";

const SCOUT_KEY = `mnemo_${"r".repeat(40)}`;
const OLIVIA = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
const ANA = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };

let t: TempDb;
let cache: RecallCache;
let other: Client | null = null;
beforeEach(async () => {
  t = await createTempDb();
  await seedDemo(t.db, { scout: SCOUT_KEY });
  cache = new RecallCache(64 * 2 ** 20);
});
afterEach(() => {
  other?.close();
  other = null;
  t.close();
});

const admit = (): Promise<AgentContext> =>
  authenticateAgent(t.db, new Request("http://mnemo.test/api/v1/recall", { headers: { authorization: `Bearer ${SCOUT_KEY}` } }));

/** One recall request as the API answers it: admitted with the versions of this moment, then through the cache. */
async function ask(input: RecallInput): Promise<RecallOutput> {
  return recallOutputOf(await recallAnswer(t.db, await admit(), input, cache));
}

const inSupport = (q?: string) => ask({ channel: "support", asker: "ana", q });
const bodies = (answer: RecallOutput) => answer.facts.map((fact) => fact.body);
/** The facts the question's words found, in order (the unmatched rest only fills the answer). */
const found = (answer: RecallOutput) => answer.facts.filter((fact) => fact.why.score !== null).map((fact) => fact.body);

async function idOf(body: string): Promise<string> {
  const row = await readOne<{ id: string }>(t.db, "SELECT id FROM facts WHERE body = ?", [body]);
  if (!row) throw new Error(`no fact "${body}"`);
  return row.id;
}

/** A second client on the same file: another process's writes, in plain SQL. */
function anotherClient(): Client {
  other = createClient({ url: t.url });
  return other;
}

describe("through this process's writes", () => {
  it("a forgotten fact leaves ranked recall at once, and its purge changes nothing more", async () => {
    expect(found(await inSupport("refund approval"))).toEqual([DEMO_FACTS.refunds]);
    const before = await inSupport("refund approval");
    const id = await idOf(DEMO_FACTS.refunds);
    expect(await forgetFact(t.db, ANA, "scout", id)).toEqual({ status: "forgotten" });

    const after = await inSupport("refund approval");
    expect(bodies(after)).not.toContain(DEMO_FACTS.refunds);
    expect(found(after)).toEqual([]);
    expect(after.considered).toBe(before.considered - 1);

    expect(await purgeFact(t.db, ANA, "scout", id)).toEqual({ status: "purged" });
    const purged = await inSupport("refund approval");
    expect(bodies(purged)).not.toContain(DEMO_FACTS.refunds);
    expect(purged.considered).toBe(after.considered);
  });

  it("a fact the agent forgot leaves it too (the agent's own forget)", async () => {
    expect(found(await inSupport("Enterprise SSO"))).toEqual([DEMO_FACTS.sso]);
    const { place } = await derivePlace(t.db, "acme", "general", "max");
    const verdict = await agentForget(t.db, { kind: "agent", id: "scout", name: "Scout" }, await idOf(DEMO_FACTS.sso), place);
    expect(verdict).toBe("forgotten");
    expect(bodies(await inSupport("Enterprise SSO"))).not.toContain(DEMO_FACTS.sso);
  });

  it("a corrected fact is found by its new words and not by its old ones, at once", async () => {
    expect(found(await inSupport("refund approval"))).toEqual([DEMO_FACTS.refunds]);
    const corrected = "Chargebacks above $900 need the finance lead's sign-off.";
    const result = await correctFact(t.db, ANA, "scout", await idOf(DEMO_FACTS.refunds), 1, corrected);
    expect(result.status).toBe("corrected");

    // The same question again: the kept answer is not served, and the kept words no longer match.
    const old = await inSupport("refund approval");
    expect(found(old)).toEqual([]);
    expect(old.section).not.toContain(DEMO_FACTS.refunds);
    const fresh = await inSupport("who signs off chargebacks?");
    expect(found(fresh)).toEqual([corrected]);
    expect(fresh.facts[0].why.pinned).toBe(true); // the pinned workspace fact still leads
    expect(fresh.facts[1]).toMatchObject({ body: corrected, why: { rank: 2, matched: ["signs", "chargebacks"] } });
  });

  it("a fact the agent just remembered is found by the next question", async () => {
    expect(found(await inSupport("escalation hotline"))).toEqual([]);
    const kept = await rememberForAgent(t.db, await admit(), {
      channel: "support",
      asker: "ana",
      fact: "The escalation hotline is staffed until 22:00.",
      scope: "channel",
    });
    expect(kept.status).toBe(201);
    const answer = await inSupport("escalation hotline");
    expect(found(answer)).toEqual(["The escalation hotline is staffed until 22:00."]);
    expect(answer.facts[1].why.matched).toEqual(["escalation", "hotline"]);
    // Kept in #support, so nowhere else.
    expect(bodies(await ask({ channel: "general", asker: "ana", q: "escalation hotline" }))).not.toContain(
      "The escalation hotline is staffed until 22:00.",
    );
  });

  it("an unpinned fact loses its place at the top at once", async () => {
    const first = await inSupport("refund approval");
    expect(bodies(first).slice(0, 2)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.refunds]);
    expect(await setPinned(t.db, OLIVIA, "scout", await idOf(DEMO_FACTS.releases), false)).toEqual({ status: "unpinned" });
    const after = await inSupport("refund approval");
    expect(bodies(after)[0]).toBe(DEMO_FACTS.refunds);
    expect(after.facts.every((fact) => !fact.why.pinned)).toBe(true);
  });
});

describe("through another client on the same file", () => {
  it("a body changed in plain SQL is found by its new words, by the kept question and a new one", async () => {
    // Both caches warm: the answer to this question, and the word index of #support.
    expect(found(await inSupport("refund approval"))).toEqual([DEMO_FACTS.refunds]);
    expect(found(await inSupport("refund approval"))).toEqual([DEMO_FACTS.refunds]);

    await anotherClient().execute({
      // With its terms, as every writer sets them (lib/memory/terms.ts).
      sql: "UPDATE facts SET body = ?, terms = ? WHERE body = ?",
      args: [
        "Store credit replaces cash returns in #support.",
        factTerms("Store credit replaces cash returns in #support.", "#support", "@ana in #support"),
        DEMO_FACTS.refunds,
      ],
    });
    expect(found(await inSupport("refund approval"))).toEqual([]); // the kept answer's question
    expect(found(await inSupport("store credit"))).toEqual(["Store credit replaces cash returns in #support."]); // a new one
  });

  it("a row deleted in plain SQL is gone from the next answer, kept or not", async () => {
    await inSupport("refund approval");
    await inSupport("Enterprise SSO");
    await anotherClient().execute({ sql: "DELETE FROM facts WHERE body = ?", args: [DEMO_FACTS.refunds] });
    const kept = await inSupport("refund approval");
    expect(bodies(kept)).not.toContain(DEMO_FACTS.refunds);
    expect(bodies(await inSupport("Enterprise SSO"))).not.toContain(DEMO_FACTS.refunds);
    expect(kept.considered).toBe(2);
  });

  it("a fact inserted in plain SQL is found at once", async () => {
    await inSupport("warranty claims");
    await anotherClient().execute({
      sql: `INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, body, body_key, source_kind, created_by, created_by_kind, created_at, updated_at, terms)
        VALUES ('fact_sql_one', 'scout', 'acme', 'channel', 'support', 'Warranty claims go to the hardware team.', 'warranty claims go to the hardware team', 'message', 'scout', 'agent', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ?)`,
      args: [factTerms("Warranty claims go to the hardware team.", null, null)],
    });
    expect(found(await inSupport("warranty claims"))).toEqual(["Warranty claims go to the hardware team."]);
  });

  it("a fact moved out of the place in plain SQL leaves it at once (scope changed under the kept index)", async () => {
    await inSupport("refund approval");
    await anotherClient().execute({ sql: "UPDATE facts SET scope_ref = 'leadership' WHERE body = ?", args: [DEMO_FACTS.refunds] });
    expect(bodies(await inSupport("refund approval"))).not.toContain(DEMO_FACTS.refunds);
    expect(found(await ask({ channel: "leadership", asker: "max", q: "refund approval" }))).toEqual([DEMO_FACTS.refunds]);
  });

  it("a channel made private in plain SQL stops a reader who is not in it, with a question too", async () => {
    // #support's members are max and ana; gus reads it only while it is public.
    expect(found(await ask({ channel: "support", asker: "gus", q: "refund approval" }))).toEqual([DEMO_FACTS.refunds]);
    await anotherClient().execute("UPDATE channels SET kind = 'private' WHERE id = 'support'");
    await expect(ask({ channel: "support", asker: "gus", q: "refund approval" })).rejects.toMatchObject({ status: 403 });
    expect(found(await inSupport("refund approval"))).toEqual([DEMO_FACTS.refunds]);
  });
});

describe("two databases in one process", () => {
  it("a second database with the same agent and version gets its own facts, not the first one's", async () => {
    const key = `mnemo_${"z".repeat(40)}`;
    for (let round = 0; round < 2; round++) {
      const other = await createTempDb();
      await seedDemo(other.db, { scout: key });
      const agent = await authenticateAgent(other.db, new Request("http://x/", { headers: { authorization: `Bearer ${key}` } }));
      const answer = await recallForAgent(other.db, agent, { channel: "support", asker: "ana", q: "refund approval" });
      const { rows } = await other.db.$client.execute("SELECT id FROM facts WHERE body LIKE 'Refunds%'");
      expect(answer.facts[1].id).toBe(rows[0].id);
      other.close();
    }
  });
});
