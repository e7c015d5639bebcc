/**
 * Look-alikes as the writes keep them and the answers and the Memory page show them,
 * on a real libSQL file seeded with the demo (db/seed.ts): found for near-edits and
 * changed values, never for unrelated or identical facts, never across agents, scopes
 * or places; an agent is told only what it may recall where it writes; the page shows
 * a pair only to people who may see both facts; Keep both, forgetting, purging and
 * Replace the older one each end a pair.
 */
import { describe, expect, it } from "vitest";
import { eq, or } from "drizzle-orm";
import { agents, factEvents, factLookAlikes, facts } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { rememberForAgent } from "@/lib/api/agent-memory";
import type { AgentContext } from "@/lib/api/auth";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { keepBoth, lookAlikesOf, replaceOlder, SHORTLIST_STATEMENTS } from "./look-alike-pairs";
import { utcDay } from "./rules";
import { tellFact } from "./tell";
import { forgetFact, purgeFact, remember, restoreFact, type PersonActor } from "./writes";
import { scoutHeard } from "@/lib/testing/scout-heard";

const SCOUT: AgentContext = { keyId: "key_demo_scout", agentId: "scout", workspaceId: "acme", handle: "scout", name: "Scout", recallVersion: "0.0" };
const OLIVIA: PersonActor = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
const MAX: PersonActor = { workspaceId: "acme", id: "max", name: "Max Mills", handle: "max" };
const ANA: PersonActor = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };
const GUS: PersonActor = { workspaceId: "acme", id: "gus", name: "Gus Gray", handle: "gus" };
const GINA: PersonActor = { workspaceId: "globex", id: "gina", name: "Gina Grant", handle: "gina" };

const t = tempDbForTests({ demo: true, each: true });

async function idOf(body: string): Promise<string> {
  const [row] = await t.db.select({ id: facts.id }).from(facts).where(eq(facts.body, body));
  if (!row) throw new Error(`no fact "${body}"`);
  return row.id;
}

async function pairsOf(id: string) {
  return t.db
    .select({ factId: factLookAlikes.factId, otherId: factLookAlikes.otherId })
    .from(factLookAlikes)
    .where(or(eq(factLookAlikes.factId, id), eq(factLookAlikes.otherId, id)));
}

const today = () => utcDay();

/** Scout keeps a fact in #support (a channel fact there) and answers with what the API would. */
async function inSupport(fact: string, extra: { asker?: string; private?: boolean } = {}) {
  return (await rememberForAgent(t.db, SCOUT, { channel: "support", fact, ...extra })).body;
}

describe("look-alikes in remember's answer", () => {
  it("lists a changed value and a near-edit of a fact of the same scope and place, with its id and score", async () => {
    const refunds = await idOf(DEMO_FACTS.refunds);
    const changed = await inSupport("Refunds over $800 need a manager's approval.");
    expect(changed.similar).toEqual([{ id: refunds, body: DEMO_FACTS.refunds, score: expect.any(Number) }]);
    expect(changed.similar[0].score).toBeGreaterThanOrEqual(0.6);
    expect(await pairsOf(changed.memory.id)).toEqual([{ factId: changed.memory.id, otherId: refunds }]);

    const edited = await inSupport("Refunds over $500 need a managers approval first.");
    expect(edited.similar.map((s) => s.id)).toContain(refunds);
  });

  it("lists nothing for an unrelated fact, and keeps no pair", async () => {
    const answer = await inSupport("The office plants are watered on Fridays.");
    expect(answer.similar).toEqual([]);
    expect(await pairsOf(answer.memory.id)).toEqual([]);
  });

  it("never lists the same fact said again: dedupe refreshes it instead", async () => {
    const again = await inSupport(`  ${DEMO_FACTS.refunds.toUpperCase()} `);
    expect(again.deduplicated).toBe(true);
    expect(again.similar).toEqual([]);
    expect(await pairsOf(await idOf(DEMO_FACTS.refunds))).toEqual([]);
  });

  it("never crosses places: the same words in another channel find nothing", async () => {
    const answer = (await rememberForAgent(t.db, SCOUT, { channel: "general", fact: "Refunds over $800 need a manager's approval." })).body;
    expect(answer.memory.scope).toBe("channel");
    expect(answer.similar).toEqual([]);
    expect(await pairsOf(answer.memory.id)).toEqual([]);
  });

  it("never crosses scopes: a workspace fact does not look like a channel fact", async () => {
    const told = await tellFact(t.db, OLIVIA, { id: "scout", workspaceId: "acme" }, {
      text: "Refunds over $800 need a manager's approval.",
      scope: "workspace",
    });
    expect(told).toMatchObject({ status: "created", similar: [] });
  });

  it("never crosses agents: another agent's fact of the same place is not a look-alike", async () => {
    await t.db.insert(agents).values({ id: "scribe", workspaceId: "acme", handle: "scribe", name: "Scribe" });
    const scribe: AgentContext = { ...SCOUT, keyId: "key_scribe", agentId: "scribe", handle: "scribe", name: "Scribe" };
    const answer = (await rememberForAgent(t.db, scribe, { channel: "support", fact: "Refunds over $800 need a manager's approval." })).body;
    expect(answer.similar).toEqual([]);
  });

  it("never tells an agent about a fact it may not recall where it writes", async () => {
    const portuguese = await idOf(DEMO_FACTS.anaPerson);
    // Ana's own fact, written from a public channel: kept as hers, paired, but not recallable in #support.
    const fromSupport = await inSupport("Ana prefers replies in Spanish.", { asker: "ana", private: true });
    expect(fromSupport.memory.scope).toBe("person");
    expect(fromSupport.similar).toEqual([]);
    expect(await pairsOf(fromSupport.memory.id)).toEqual([{ factId: fromSupport.memory.id, otherId: portuguese }]);
    // In her DM the same scope is recallable, so the agent hears of it.
    const inDm = (await rememberForAgent(t.db, SCOUT, { channel: "dm-ana", asker: "ana", fact: "Ana prefers replies in Italian." })).body;
    expect(inDm.similar.map((s) => s.id)).toEqual(expect.arrayContaining([portuguese, fromSupport.memory.id]));
  });

  it("pairs a proposal but never shows it to the agent: it waits so its text does not reach the agent", async () => {
    const proposal = await scoutHeard(t.db, "Refunds over $900 need a manager's approval.", {
      scope: "channel",
      ref: "support",
      label: "#support",
      in: "support",
      from: "@ana in #support",
      proposal: "setting",
    });
    if (proposal.status !== "created") throw new Error(proposal.status);
    const answer = await inSupport("Refunds over $700 need a manager's approval.");
    expect(answer.similar.map((s) => s.id)).toEqual([await idOf(DEMO_FACTS.refunds)]);
    expect((await pairsOf(answer.memory.id)).map((p) => p.otherId)).toContain(proposal.fact.id);
  });

  it("never pairs with an expired or a forgotten fact", async () => {
    const refunds = await idOf(DEMO_FACTS.refunds);
    await t.db.update(facts).set({ validUntil: "2020-01-01" }).where(eq(facts.id, refunds));
    expect((await inSupport("Refunds over $800 need a manager's approval.")).similar).toEqual([]);
    await t.db.update(facts).set({ validUntil: null }).where(eq(facts.id, refunds));
    await forgetFact(t.db, MAX, "scout", refunds);
    expect((await inSupport("Refunds over $900 need a manager's approval.")).similar.map((s) => s.id)).not.toContain(refunds);
  });
});

describe("the shortlist: the branch's postings of the rarest terms, never the place's facts", () => {
  it("finds the look-alike among many facts of its branch that share its common words", async () => {
    const base = {
      agentId: "scout",
      workspaceId: "acme",
      scope: "channel" as const,
      scopeRef: "support",
      scopeLabel: "#support",
      source: { kind: "message" as const, ref: null, label: "@ana in #support", channelId: "support" },
      by: { kind: "agent" as const, id: "scout", name: "Scout" },
      pinned: false,
    };
    // 300 facts about refunds and approvals: the common words alone would shortlist all of them.
    const people = ["Ana", "Max", "Olivia", "Gus", "Priya", "Chen", "Noor", "Diego", "Yuki", "Hugo"];
    const things = ["laptops", "travel", "software", "hardware", "training", "catering", "licences", "furniture", "shipping", "hosting"];
    const ways = ["email", "chat", "phone"];
    for (let i = 0; i < 300; i++) {
      const body = `Refunds for ${things[i % 10]} need ${people[Math.floor(i / 10) % 10]}'s approval by ${ways[Math.floor(i / 100)]}.`;
      expect((await remember(t.db, { ...base, body })).status).toBe("created");
    }
    const target = "Escalated chargebacks from Lumen Labs go to the finance lead within two days.";
    const kept = await remember(t.db, { ...base, body: target });
    if (kept.status !== "created") throw new Error(kept.status);
    const answer = await inSupport("Escalated chargebacks from Lumen Labs go to the finance lead within three days.");
    expect(answer.similar.map((s) => s.id)).toEqual([kept.fact.id]);
    const common = await inSupport("Refunds for laptops need Ana's approval by fax.");
    expect(common.similar).toHaveLength(3);
    expect(common.similar.map((s) => s.body)).toContain("Refunds for laptops need Ana's approval by email.");
  });

  it("its statements seek by key, never scan facts or postings", async () => {
    for (const sql of Object.values(SHORTLIST_STATEMENTS)) {
      const args = sql === SHORTLIST_STATEMENTS.termCounts ? ['["refund"]', "scout", "acme", "channel", "support"] : [1, '["refund"]', today(), 100, "x", "scout", "acme", "channel", "support"];
      const plan = (await t.db.$client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args })).rows.map((row) => String(row.detail));
      if (process.env.SHOW_PLANS) console.log(plan);
      for (const step of plan) expect(step, `${sql}\n${plan.join("\n")}`).not.toMatch(/^SCAN (facts|fact_terms|recall_branches)\b/);
      // The shortlisted facts are read by key, not by walking the branch's index for them.
      if (sql === SHORTLIST_STATEMENTS.shortlist) expect(plan).toContain("SEARCH facts USING INTEGER PRIMARY KEY (rowid=?)");
    }
  });
});

describe("look-alikes on the Memory page", () => {
  /** A channel fact of #leadership (private: Olivia and Max) and its look-alike. */
  async function leadershipPair() {
    const budget = await idOf(DEMO_FACTS.budget);
    const told = await tellFact(t.db, MAX, { id: "scout", workspaceId: "acme" }, {
      text: "The Q3 budget freeze lifts in November.",
      scope: "channel",
      channelId: "leadership",
    });
    if (told.status !== "created") throw new Error(told.status);
    expect(told.similar.map((s) => s.id)).toEqual([budget]);
    return { newer: told.fact.id, older: budget };
  }

  it("shows a pair to those who may see both facts, and to no one else", async () => {
    const { newer, older } = await leadershipPair();
    for (const person of [OLIVIA, MAX]) {
      expect(await lookAlikesOf(t.db, person, "scout", [newer], today())).toEqual([
        { factId: newer, id: older, body: DEMO_FACTS.budget, score: expect.any(Number) },
      ]);
    }
    for (const person of [ANA, GUS, GINA]) expect(await lookAlikesOf(t.db, person, "scout", [newer], today())).toEqual([]);
    // Asked about another agent, or with no facts, there is nothing.
    expect(await lookAlikesOf(t.db, MAX, "echo", [newer], today())).toEqual([]);
    expect(await lookAlikesOf(t.db, MAX, "scout", [], today())).toEqual([]);
  });

  it("Keep both removes the pair, only for someone who may change both facts", async () => {
    const { newer, older } = await leadershipPair();
    for (const person of [ANA, GUS, GINA]) expect(await keepBoth(t.db, person, "scout", newer, older)).toEqual({ status: "not_found" });
    expect(await pairsOf(newer)).toHaveLength(1);
    expect(await keepBoth(t.db, OLIVIA, "scout", newer, older)).toEqual({ status: "kept" });
    expect(await pairsOf(newer)).toEqual([]);
    expect(await lookAlikesOf(t.db, MAX, "scout", [newer], today())).toEqual([]);
    expect(await keepBoth(t.db, OLIVIA, "scout", newer, older)).toEqual({ status: "not_found" });
  });

  it("forgetting either fact hides the pair (Undo brings it back); purging either removes it", async () => {
    const { newer, older } = await leadershipPair();
    await forgetFact(t.db, MAX, "scout", older);
    expect(await lookAlikesOf(t.db, MAX, "scout", [newer], today())).toEqual([]);
    await restoreFact(t.db, MAX, "scout", older);
    expect(await lookAlikesOf(t.db, MAX, "scout", [newer], today())).toHaveLength(1);

    await forgetFact(t.db, MAX, "scout", newer);
    expect(await lookAlikesOf(t.db, MAX, "scout", [newer], today())).toEqual([]);
    expect(await purgeFact(t.db, MAX, "scout", newer)).toEqual({ status: "purged" });
    expect(await pairsOf(older)).toEqual([]);
  });

  it("Replace the older one retires it into the newer fact's history, only where both may be changed", async () => {
    const { newer, older } = await leadershipPair();
    for (const person of [ANA, GUS, GINA]) {
      expect(await replaceOlder(t.db, person, "scout", newer, older)).toEqual({ status: "not_found" });
    }
    // Only a pair that exists: not the other way round, not an arbitrary fact.
    expect(await replaceOlder(t.db, MAX, "scout", older, newer)).toEqual({ status: "not_found" });
    expect(await replaceOlder(t.db, MAX, "scout", newer, await idOf(DEMO_FACTS.refunds))).toEqual({ status: "not_found" });

    expect(await replaceOlder(t.db, MAX, "scout", newer, older)).toEqual({ status: "replaced" });
    expect(await t.db.select().from(facts).where(eq(facts.id, older))).toEqual([]);
    expect(await pairsOf(newer)).toEqual([]);
    const history = await t.db.select().from(factEvents).where(eq(factEvents.factId, newer));
    expect(history.find((e) => e.kind === "replace")).toMatchObject({
      before: DEMO_FACTS.budget,
      after: "The Q3 budget freeze lifts in November.",
      otherFactId: older,
      actorId: "max",
    });
    expect(await replaceOlder(t.db, MAX, "scout", newer, older)).toEqual({ status: "not_found" });
  });

  it("a member may not replace or dismiss a workspace pair; an owner may", async () => {
    const told = await tellFact(t.db, OLIVIA, { id: "scout", workspaceId: "acme" }, {
      text: "Releases go out on Wednesdays.",
      scope: "workspace",
    });
    if (told.status !== "created") throw new Error(told.status);
    const releases = await idOf(DEMO_FACTS.releases);
    expect(told.similar.map((s) => s.id)).toEqual([releases]);
    // Members see both facts, so they see the pair; changing either is the owners'.
    expect(await lookAlikesOf(t.db, ANA, "scout", [told.fact.id], today())).toHaveLength(1);
    expect(await keepBoth(t.db, ANA, "scout", told.fact.id, releases)).toEqual({ status: "not_found" });
    expect(await replaceOlder(t.db, ANA, "scout", told.fact.id, releases)).toEqual({ status: "not_found" });
    expect(await replaceOlder(t.db, OLIVIA, "scout", told.fact.id, releases)).toEqual({ status: "replaced" });
  });
});
