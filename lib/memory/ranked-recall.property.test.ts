/**
 * Ranking never widens the rules, property-tested: for random workspaces, channels,
 * people and facts (on a real libSQL file), random places and random questions —
 * words of the facts, typos, stop words, empty, unicode, noise — with random limit
 * and budget, both recall paths (recallRanked, and recallForAgent as the API calls it
 * with the agent's real memory version) answer a subset of what the pure rule
 * `recallable` allows in the place, pinned first, within limit and budget, with
 * receipts that add up. Without a question the order is today's recall(). Some facts
 * ended yesterday (expired: never recalled nor counted), some end today or later.
 */
import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agentKeys, agents, channelMembers, channels, facts, memberships, users, workspaces } from "@/db/schema";
import { generateAgentKey, hashAgentKey } from "@/lib/api/agent-keys";
import { recallForAgent } from "@/lib/api/agent-memory";
import { authenticateAgent, type AgentContext } from "@/lib/api/auth";
import { newId } from "@/lib/ids";
import { flatRanked, type FlatRecall } from "@/lib/testing/flat-ranked";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import { cleanFact, dedupeKey } from "./fact-text";
import { derivePlace } from "./place";
import { recallRanked } from "./ranked-recall";
import { RECALL_LIMIT, recallable, type Place } from "./rules";
import { recall } from "./store";
import { factTerms, foldedWords, questionWords } from "./terms";

const PEOPLE = ["p0", "p1", "p2", "p3", "p4", "p5"];
const WORKSPACES = ["w1", "w2"];
const CHANNEL_IDS = ["c0", "c1", "c2", "c3", "c4", "c5"];
/** Last days around today (UTC): yesterday's facts are expired, today's and later ones still hold. */
const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const UNTILS = [null, null, null, dayFromNow(-1), dayFromNow(0), dayFromNow(1)];
const TIMES = ["2026-04-01T00:00:00.000Z", "2026-04-02T00:00:00.000Z", "2026-04-03T00:00:00.000Z", "2026-04-04T00:00:00.000Z"];

// Words facts and questions share, with the cases folding must get right (accents, ligatures, thousands, possessives, scripts).
const WORDS = [
  "release", "releases", "Thursday", "Thursdays", "refund", "Refunds", "approval", "approve", "manager", "manager's",
  "budget", "freeze", "October", "Q3", "SSO", "Enterprise", "plan", "Portuguese", "replies", "language", "café", "CAFE",
  "naïve", "Zürich", "on-call", "1,000", "1000", "$500", "v2.1", "billing", "migration", "pairing", "deploy", "ﬁle",
  "straße", "İstanbul", "日本語", "🚀", "e\u0301te\u0301", "Ana", "Max", "acronyms",
];
const STOPS = ["the", "what", "is", "when", "do", "I", "should", "in", "on", "who", "please", "tell", "me", "?"];
const LABELS = [null, "#support", "@ana in #support", "Ana Alves", "@max in a direct message", "#leadership"];

const phrase = (min: number, max: number) =>
  fc.array(fc.constantFrom(...WORDS, ...WORDS, ...STOPS), { minLength: min, maxLength: max }).map((words) => words.join(" "));

/** One edit of a word: what a person's typing does to it. */
const typo = fc
  .tuple(fc.constantFrom(...WORDS.filter((word) => word.length >= 4)), fc.nat(), fc.constantFrom("swap", "drop", "double", "change"))
  .map(([word, at, edit]) => {
    const i = at % (word.length - 1);
    if (edit === "swap") return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    if (edit === "drop") return word.slice(0, i) + word.slice(i + 1);
    if (edit === "double") return word.slice(0, i) + word[i] + word.slice(i);
    return word.slice(0, i) + "x" + word.slice(i + 1);
  });

const question = fc.oneof(
  { weight: 5, arbitrary: phrase(1, 8) },
  { weight: 2, arbitrary: fc.tuple(phrase(0, 3), typo).map(([words, wrong]) => `${words} ${wrong}`) },
  { weight: 2, arbitrary: fc.constant(undefined) },
  fc.constantFrom("", " ", "\t\n ", "what is it?", "the of and", "who should I tell?"),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);
// Small limits often, so a limit really cuts in the small random places too.
const limit = fc.option(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: RECALL_LIMIT })), { nil: undefined });
const budget = fc.option(
  fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 600 }), fc.integer({ min: 1, max: 1_000_000 })),
  { nil: undefined },
);

const world = fc.record({
  roles: fc.array(fc.array(fc.constantFrom(null, "member", "owner"), { minLength: 2, maxLength: 2 }), {
    minLength: PEOPLE.length,
    maxLength: PEOPLE.length,
  }),
  channels: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom(...CHANNEL_IDS),
      workspace: fc.nat(1),
      kind: fc.constantFrom("public" as const, "private" as const, "dm" as const),
      members: fc.subarray(PEOPLE, { maxLength: 3 }),
    }),
    { selector: (c) => c.id, minLength: 1, maxLength: CHANNEL_IDS.length },
  ),
  facts: fc.array(
    fc.record({
      agent: fc.nat(1),
      // Now and then a fact whose workspace is not its agent's: still never crosses.
      otherWorkspace: fc.nat(9).map((n) => n === 0),
      scope: fc.constantFrom("workspace" as const, "channel" as const, "person" as const),
      channelRef: fc.constantFrom(...CHANNEL_IDS, "ghost"),
      personRef: fc.constantFrom(...PEOPLE, "ghost"),
      // Any text, as Mnemo stores it: cleaned (cleanFact), never blank — as every writer leaves it.
      body: fc.oneof(
        { weight: 4, arbitrary: phrase(1, 10) },
        fc
          .string({ unit: "grapheme", minLength: 1, maxLength: 30 })
          .map((text) => cleanFact(text))
          .filter((text): text is string => !!text),
      ),
      scopeLabel: fc.constantFrom(...LABELS),
      sourceLabel: fc.constantFrom(...LABELS),
      pinned: fc.nat(9).map((n) => n < 2),
      time: fc.constantFrom(...TIMES),
      forgotten: fc.nat(9).map((n) => n < 2),
      validUntil: fc.constantFrom(...UNTILS),
    }),
    // Enough facts that places hold several and questions find some.
    { minLength: 20, maxLength: 70 },
  ),
  asks: fc.array(
    fc.record({ channel: fc.nat(CHANNEL_IDS.length - 1), asker: fc.constantFrom(null, ...PEOPLE), question, limit, budget }),
    { minLength: 1, maxLength: 5 },
  ),
});
type World = typeof world extends fc.Arbitrary<infer T> ? T : never;
type Row = typeof facts.$inferSelect;

let t: TempDb;
/** Each run gets agents of its own: a fresh memory version can never meet a branch kept from another world. */
let run = 0;
let agentsNow: { id: string; workspaceId: string; key: string }[] = [];

beforeAll(async () => {
  t = await createTempDb();
  await t.db.insert(users).values(PEOPLE.map((id) => ({ id, name: `Person ${id}`, email: `${id}@example.test` })));
  delete process.env.MNEMO_EMBEDDINGS_URL;
  delete process.env.MNEMO_EMBEDDINGS_MODEL;
});
afterAll(() => t.close());

async function build(db: Db, w: World, bodyOf: (f: World["facts"][number], i: number) => string = (f) => f.body) {
  for (const table of ["fact_events", "facts", "agent_keys", "channel_members", "channels", "agents", "memberships", "workspaces"]) {
    await db.run(sql.raw(`DELETE FROM ${table}`));
  }
  run += 1;
  agentsNow = WORKSPACES.map((workspaceId, i) => ({ id: `a${i + 1}r${run}`, workspaceId, key: generateAgentKey() }));
  await db.insert(workspaces).values(WORKSPACES.map((id) => ({ id, name: id })));
  const memberRows = PEOPLE.flatMap((userId, p) =>
    WORKSPACES.flatMap((workspaceId, i) => {
      const role = w.roles[p][i];
      return role ? [{ workspaceId, userId, role }] : [];
    }),
  );
  if (memberRows.length) await db.insert(memberships).values(memberRows);
  const isMember = (ws: string, userId: string) => memberRows.some((m) => m.workspaceId === ws && m.userId === userId);
  await db.insert(channels).values(w.channels.map((c) => ({ id: c.id, workspaceId: WORKSPACES[c.workspace], name: c.id, kind: c.kind })));
  const cm = w.channels.flatMap((c) =>
    c.members
      .filter((userId) => isMember(WORKSPACES[c.workspace], userId))
      .map((userId) => ({ channelId: c.id, workspaceId: WORKSPACES[c.workspace], userId })),
  );
  if (cm.length) await db.insert(channelMembers).values(cm);
  await db.insert(agents).values(agentsNow.map((a) => ({ id: a.id, workspaceId: a.workspaceId, handle: a.id, name: a.id })));
  await db.insert(agentKeys).values(
    agentsNow.map((a) => ({ id: `key_${a.id}`, agentId: a.id, name: "test", prefix: a.key.slice(0, 10), hash: hashAgentKey(a.key) })),
  );
  const rows = w.facts.map((f, i) => {
    const agent = agentsNow[f.agent];
    const body = bodyOf(f, i);
    return {
      id: newId("fact"),
      agentId: agent.id,
      workspaceId: f.otherWorkspace ? WORKSPACES[1 - f.agent] : agent.workspaceId,
      scope: f.scope,
      scopeRef: f.scope === "workspace" ? "" : f.scope === "channel" ? f.channelRef : f.personRef,
      scopeLabel: f.scopeLabel,
      body,
      // Unique per fact: the dedupe index is not what is under test.
      bodyKey: `${dedupeKey(body)}#${i}`,
      sourceKind: "message" as const,
      sourceLabel: f.sourceLabel,
      createdBy: agent.id,
      createdByKind: "agent" as const,
      pinned: f.pinned,
      createdAt: f.time,
      updatedAt: f.time,
      forgottenAt: f.forgotten ? "2026-04-05T00:00:00.000Z" : null,
      validUntil: f.validUntil,
      // As every writer sets them: ranked recall reads the postings made from them.
      terms: factTerms(body, f.scopeLabel, f.sourceLabel),
    };
  });
  for (let i = 0; i < rows.length; i += 100) await db.insert(facts).values(rows.slice(i, i + 100));
}

/** The agent as a request with its key is admitted: with the memory version read at that moment. */
const admit = (key: string): Promise<AgentContext> =>
  authenticateAgent(t.db, new Request("http://mnemo.test/api/v1/recall", { headers: { authorization: `Bearer ${key}` } }));

/** Recall order: pinned first, then newest, ties by id (byte order, as the index). */
function recallOrder(a: Pick<Row, "pinned" | "updatedAt" | "id">, b: Pick<Row, "pinned" | "updatedAt" | "id">) {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

/** What the pure rule allows this agent in this place: live and recallable (so unexpired), in today's recall order. */
async function allowedHere(agentId: string, place: Place): Promise<Row[]> {
  const rows = await t.db.select().from(facts).where(eq(facts.agentId, agentId));
  return rows.filter((f) => f.forgottenAt === null && recallable(f, place)).sort(recallOrder);
}

type Why = { pinned: boolean; rank: number; score: number | null; matched: string[] };
type Answer = { facts: { id: string; body: string; why: Why }[]; section: string | null; tokens: number; considered: number; ranking: string };

/** Every property of one answer that the brief of issue #14 names, against the pure rule's allowed set. */
function expectWithinRules(answer: Answer, allowed: Row[], ask: { question?: string; limit?: number; budget?: number }) {
  const allowedIds = new Set(allowed.map((f) => f.id));
  const ids = answer.facts.map((f) => f.id);
  // A subset of what the rules allow, each fact once.
  for (const id of ids) expect(allowedIds.has(id), `recalled ${id}, which the rules do not allow here`).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  // Never more than the limit; the budget holds and `tokens` is the section's real size.
  expect(ids.length).toBeLessThanOrEqual(ask.limit ?? RECALL_LIMIT);
  expect(answer.tokens).toBe(answer.section === null ? 0 : countTokens(answer.section));
  expect(answer.section === null).toBe(answer.facts.length === 0);
  if (ask.budget !== undefined) expect(answer.tokens).toBeLessThanOrEqual(ask.budget);
  // Whole facts, never cut: each body is in the section.
  for (const fact of answer.facts) expect(answer.section).toContain(fact.body);
  expect(answer.considered).toBe(allowed.length);
  // Pinned first, ranks 1..n, receipts that agree with themselves.
  const pinnedFlags = answer.facts.map((f) => f.why.pinned);
  expect(pinnedFlags).toEqual([...pinnedFlags].sort((a, b) => Number(b) - Number(a)));
  const byId = new Map(allowed.map((f) => [f.id, f]));
  answer.facts.forEach((fact, i) => {
    expect(fact.why.rank).toBe(i + 1);
    expect(fact.why.pinned).toBe(byId.get(fact.id)!.pinned);
    expect(fact.why.score === null).toBe(fact.why.matched.length === 0);
  });
  // Among the unpinned: the matched ones first, by score (never rising), then the rest.
  const unpinned = answer.facts.filter((f) => !f.why.pinned);
  const scored = unpinned.filter((f) => f.why.score !== null);
  expect(unpinned.slice(0, scored.length)).toEqual(scored);
  for (let i = 1; i < scored.length; i++) expect(scored[i].why.score!).toBeLessThanOrEqual(scored[i - 1].why.score!);
  // A word a fact matched is one the asker wrote (folded); there is no meaning without a provider.
  const written = new Set(foldedWords(ask.question ?? ""));
  for (const fact of answer.facts) for (const word of fact.why.matched) expect(written.has(word), `matched "${word}"`).toBe(true);

  const blank = !ask.question?.trim();
  const noWords = !blank && !questionWords(ask.question!).length;
  expect(answer.ranking).toBe(blank || noWords ? "recency" : "question (words only)");
  // No question, or one of stop words only: today's order, cut at the limit — with a budget, facts in today's order
  // still, where one too long to fit may give its place to a later, shorter one.
  if (blank || !questionWords(ask.question!).length) {
    const today = allowed.map((f) => f.id);
    if (ask.budget === undefined) expect(ids).toEqual(today.slice(0, ask.limit ?? RECALL_LIMIT));
    else expect(today.filter((id) => ids.includes(id))).toEqual(ids);
  }
}

/**
 * What the ranked answer lists as left out: allowed facts, none also in the answer, each for a reason that
 * applied; and when the list is whole (a question reads every candidate), answer and list are the allowed set.
 */
function expectAccountedFor(ranked: FlatRecall, allowed: Row[], ask: { question?: string; limit?: number; budget?: number }) {
  const allowedIds = new Set(allowed.map((f) => f.id));
  const inAnswer = new Set(ranked.facts.map((f) => f.id));
  for (const left of ranked.leftOut) {
    expect(allowedIds.has(left.id) && !inAnswer.has(left.id)).toBe(true);
    if (left.reason === "limit") expect(ranked.facts.length).toBe(ask.limit ?? RECALL_LIMIT);
    else expect(ask.budget).toBeDefined();
  }
  if (ranked.leftOut.length === ranked.considered - ranked.facts.length) {
    expect([...inAnswer, ...ranked.leftOut.map((f) => f.id)].sort()).toEqual([...allowedIds].sort());
  }
}

describe("ranked recall over random workspaces", () => {
  it("is a subset of recallable, pinned first, within limit and budget, with receipts that add up — both paths", async () => {
    const seen = { asked: 0, matched: 0, overBudget: 0, overLimit: 0, crossWorkspace: 0 };
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        await build(t.db, w);
        for (const ask of w.asks) {
          const channel = w.channels[ask.channel % w.channels.length];
          const workspaceId = WORKSPACES[channel.workspace];
          let place: Place;
          try {
            place = (await derivePlace(t.db, workspaceId, channel.id, ask.asker)).place;
          } catch {
            continue; // a refused place recalls nothing; place.test.ts covers refusals
          }
          const options = { question: ask.question, limit: ask.limit, budget: ask.budget };
          for (const agent of agentsNow) {
            const allowed = await allowedHere(agent.id, place);
            const ranked = flatRanked(await recallRanked(t.db, agent.id, place, options));
            seen.asked += 1;
            if (ranked.facts.some((f) => f.why.score !== null)) seen.matched += 1;
            const fits = Math.min(ask.limit ?? RECALL_LIMIT, allowed.length);
            if (allowed.length > fits && ranked.facts.length === fits) seen.overLimit += 1;
            if (ranked.facts.length < fits) seen.overBudget += 1;
            expectWithinRules(ranked, allowed, options);
            expectAccountedFor(ranked, allowed, options);
            // Today's recall is the pure rule too: the baseline the no-question order is held to.
            expect((await recall(t.db, agent.id, place)).map((f) => f.id)).toEqual(allowed.slice(0, RECALL_LIMIT).map((f) => f.id));

            if (agent.workspaceId !== workspaceId) {
              seen.crossWorkspace += 1;
              continue; // the API derives places in the key's own workspace only
            }
            // The API's path: real memory version, kept branches, the meaning side asked (and off). Asked twice: kept = fresh.
            const input = { channel: channel.id, asker: ask.asker ?? undefined, q: ask.question, limit: ask.limit, budget: ask.budget };
            const first = await recallForAgent(t.db, await admit(agent.key), input);
            const second = await recallForAgent(t.db, await admit(agent.key), input);
            expect(second).toEqual(first);
            expectWithinRules(first, allowed, options);
            expect(first.omitted).toBe(first.considered - first.facts.length);
            expect(first.facts.map((f) => [f.id, f.why])).toEqual(ranked.facts.map((f) => [f.id, f.why]));
            expect([first.section, first.tokens]).toEqual([ranked.section, ranked.tokens]);
          }
        }
      }),
      { numRuns: 60 },
    );
    // The runs reached every branch of the ranking, not only empty answers.
    expect(seen.matched).toBeGreaterThan(0);
    expect(seen.overBudget).toBeGreaterThan(0);
    expect(seen.overLimit).toBeGreaterThan(0);
    expect(seen.crossWorkspace).toBeGreaterThan(0);
  });

  it("keeps the rules, the limit and today's order when one place has far more than 40 candidates", async () => {
    const crowd = fc.record({
      facts: fc.array(
        fc.record({
          scope: fc.constantFrom("workspace" as const, "channel" as const, "person" as const),
          body: phrase(1, 8),
          pinned: fc.nat(9).map((n) => n < 2),
          time: fc.constantFrom(...TIMES),
          forgotten: fc.nat(9).map((n) => n < 1),
          validUntil: fc.constantFrom(...UNTILS),
          other: fc.boolean(),
        }),
        { minLength: 45, maxLength: 160 },
      ),
      asks: fc.array(fc.record({ question, limit, budget }), { minLength: 1, maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(crowd, async (c) => {
        // One DM with p0 in w1; half the person facts are p1's, half the channel facts another channel's.
        await build(t.db, {
          roles: PEOPLE.map(() => ["member", null]),
          channels: [
            { id: "c0", workspace: 0, kind: "dm", members: ["p0"] },
            { id: "c1", workspace: 0, kind: "public", members: [] },
          ],
          facts: c.facts.map((f) => ({
            agent: 0,
            otherWorkspace: false,
            scope: f.scope,
            channelRef: f.other ? "c1" : "c0",
            personRef: f.other ? "p1" : "p0",
            body: f.body,
            scopeLabel: null,
            sourceLabel: null,
            pinned: f.pinned,
            time: f.time,
            forgotten: f.forgotten,
            validUntil: f.validUntil,
          })),
          asks: [],
        });
        const place = (await derivePlace(t.db, "w1", "c0", "p0")).place;
        const [agent] = agentsNow;
        const allowed = await allowedHere(agent.id, place);
        for (const ask of c.asks) {
          const options = { question: ask.question, limit: ask.limit, budget: ask.budget };
          const ranked = flatRanked(await recallRanked(t.db, agent.id, place, options));
          expectWithinRules(ranked, allowed, options);
          expectAccountedFor(ranked, allowed, options);
          const viaApi = await recallForAgent(t.db, await admit(agent.key), { channel: "c0", asker: "p0", q: ask.question, limit: ask.limit, budget: ask.budget });
          expectWithinRules(viaApi, allowed, options);
          expect(viaApi.facts.map((f) => f.id)).toEqual(ranked.facts.map((f) => f.id));
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe("the receipt's ranking", () => {
  it("says words only when no provider is configured, even in a place with no facts", async () => {
    await build(t.db, {
      roles: PEOPLE.map(() => ["member", null]),
      channels: [{ id: "c0", workspace: 0, kind: "public", members: [] }],
      facts: [],
      asks: [],
    });
    const answer = await recallForAgent(t.db, await admit(agentsNow[0].key), { channel: "c0", asker: "p0", q: "release" });
    expect(answer).toMatchObject({ facts: [], considered: 0, ranking: "question (words only)" });
  });
});
