/**
 * A place asked again and again stops seeking postings: once a branch's seeks have
 * cost what reading it whole would, it is read whole (once per memory version and day)
 * and every later question's postings come from what was kept — with answers, scores
 * and receipts exactly those of seeking, and nothing kept across a change. The rows
 * its questions match are kept once a second question reads them, and what answers
 * work out from kept rows (their JSON, their lines) only in the room the rows leave.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readAll, readOne, type Db } from "@/db/client";
import { watchReads } from "@/db/reader";
import { flatRanked } from "@/lib/testing/flat-ranked";
import { scoutHeard } from "@/lib/testing/scout-heard";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { derivePlace } from "./place";
import { recallRanked } from "./ranked-recall";
import { liveVersionOf } from "@/lib/live/memory-watcher";
import { BYTES_PER_MEMOS, BYTES_PER_POSTING, BYTES_PER_ROW, branchKey, purchasesSettled, readWhole, WHOLE_STEP } from "./recall-candidates";
import { utcDay } from "./rules";
import type { Vocabulary } from "./word-index";
import type { RankedRecall } from "./ranking";
import { keepsMemos } from "./row-memo";
import { VersionedCache, cacheFor, dropAllKept } from "./versioned-cache";

const t = tempDbForTests({ demo: true, each: true });

/** Scout's facts in #support, heard from Ana (or waiting as proposals). */
const inSupport = (body: string, proposal?: "setting") =>
  scoutHeard(t.db, body, { scope: "channel", ref: "support", label: "#support", in: "support", from: "@ana in #support", proposal });
const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const PEOPLE = ["Ana", "Max", "Olivia", "Gus", "Priya", "Chen", "Noor", "Diego"];
const THINGS = ["laptops", "travel", "software", "hardware", "training", "catering", "licences", "shipping"];
const QUESTIONS = [
  "who approves refunds for laptops?",
  "travel refund approval",
  "What does Priya approve?",
  "shiping refunds", // a typo: the typo rule reads the vocabulary
  "catering and training budgets",
  "when do releases go out",
  "the of and",
  "hardware licences Noor Diego",
];

/** The statements readAll and readOne run for this database, as their text (db/reader.ts watchReads). */
function watchTexts(db: Db): { texts: string[]; stop: () => void } {
  const texts: string[] = [];
  return { texts, stop: watchReads(db, (text) => texts.push(text)) };
}
const seeks = (texts: string[]) => texts.filter((text) => text.includes("p.term = t.value"));
const readsBySeq = (texts: string[]) => texts.filter((text) => text.includes("ON facts.seq = j.value"));
const listReads = (texts: string[]) => texts.filter((text) => text.includes("AND pinned = 1)") || text.includes("AND pinned = 0"));
const wholeReads = (texts: string[]) => texts.filter((text) => text.includes("SELECT p.term AS term, p.fact_seq AS fact"));

/** The versions recall is kept under, as the API reads them with the key (lib/api/auth.ts). */
async function versionNow(): Promise<string> {
  return (await liveVersionOf(t.db, "scout"))!;
}

/** Installs a cache that keeps nothing under `name` for this database, and proves it is the one recall will use. */
function keepNothing(name: string) {
  const none = new VersionedCache(0);
  expect(cacheFor(name, t.db, () => none)).toBe(none);
}

/** A question as the agent asks it; a branch it bought is read whole (beside it) and kept before the next is asked. */
async function ask(question: string, version?: string) {
  const { place } = await derivePlace(t.db, "acme", "support", "ana");
  const answer = flatRanked(await recallRanked(t.db, "scout", place, { question, version, explain: true }));
  await purchasesSettled();
  return answer;
}

describe("a place asked again and again", () => {
  let watch: ReturnType<typeof watchTexts>;
  beforeEach(async () => {
    for (let i = 0; i < 64; i++) {
      const body = `Refunds for ${THINGS[i % 8]} need ${PEOPLE[Math.floor(i / 8)]}'s approval (case ${i}).`;
      expect((await inSupport(body)).status).toBe("created");
    }
    // What recall leaves out must stay out when a branch is read whole: a proposal, a fact that ended yesterday.
    expect((await inSupport("Refunds for laptops need Zoe's approval (proposed).", "setting")).status).toBe("created");
    await t.db.$client.execute({
      sql: "UPDATE facts SET valid_until = ? WHERE body = ?",
      args: [yesterday, "Refunds for travel need Ana's approval (case 1)."],
    });
    // A word both branches have: the workspace's own fact about refunds.
    const workspace = { scope: "workspace" as const, ref: "", label: null, in: "general", from: "@olivia in #general" };
    expect((await scoutHeard(t.db, "Refunds are paid within 5 days.", workspace)).status).toBe("created");
    watch = watchTexts(t.db);
  });
  afterEach(() => watch.stop());

  it("stops seeking once its seeks cost what reading it whole would, and answers exactly as seeking does", async () => {
    // No posting list kept per term: what stops the seeks can only be the branches read whole.
    keepNothing("mnemoRecallPostings");
    const version = await versionNow();
    const expected = await Promise.all(QUESTIONS.map((question) => ask(question)));
    expect(expected.flatMap((answer) => answer.facts.map((fact) => fact.body)).join(" ")).not.toMatch(/Zoe|case 1\)/);
    watch.texts.length = 0;
    let round = 0;
    for (; round < 40; round++) {
      const before = watch.texts.length;
      for (const [i, question] of QUESTIONS.entries()) expect(await ask(question, version)).toEqual(expected[i]);
      if (seeks(watch.texts.slice(before)).length === 0) break;
    }
    // Read whole within a few rounds, and each branch (the workspace's, support's) once.
    expect(round).toBeGreaterThan(0);
    expect(round).toBeLessThan(10);
    expect(wholeReads(watch.texts)).toHaveLength(2);

    // From then on, no question of this version seeks a posting.
    watch.texts.length = 0;
    for (const [i, question] of QUESTIONS.entries()) expect(await ask(question, version)).toEqual(expected[i]);
    expect(seeks(watch.texts)).toEqual([]);
    expect(wholeReads(watch.texts)).toEqual([]);
  });

  it("keeps nothing across a change: a new fact is found under the new version", async () => {
    const before = await versionNow();
    for (let round = 0; round < 40; round++) for (const question of QUESTIONS) await ask(question, before);
    expect(wholeReads(watch.texts)).toHaveLength(2);
    const body = "Refunds for laptops bought abroad need Zed's approval.";
    expect((await inSupport(body)).status).toBe("created");
    const after = await versionNow();
    expect(after).not.toBe(before);
    const fresh = await ask("Zed abroad", after);
    expect(fresh.facts.find((fact) => !fact.pinned)).toMatchObject({ body, why: { matched: ["zed", "abroad"] } });
    expect(fresh).toEqual(await ask("Zed abroad"));
  });

  it("a branch there is no room to keep is never read whole: its seeks go on, and answer as before", async () => {
    keepNothing("mnemoRecallWholeBranches");
    const version = await versionNow();
    const expected = await Promise.all(QUESTIONS.map((question) => ask(question)));
    watch.texts.length = 0;
    for (let round = 0; round < 20; round++) {
      for (const [i, question] of QUESTIONS.entries()) expect(await ask(question, version)).toEqual(expected[i]);
    }
    // Read whole and let go, each purchase would be paid again and again for nothing (VersionedCache.keepsFor).
    expect(wholeReads(watch.texts)).toEqual([]);
  });

  it("a branch that would push out one still in use is not read whole: the one kept stays, and answers are the same", async () => {
    keepNothing("mnemoRecallPostings");
    const version = await versionNow();
    const expected = await Promise.all(QUESTIONS.map((question) => ask(question)));
    // First with room for both, to learn what the workspace's branch costs kept.
    const sizes = new Map<string, number>();
    class Recording extends VersionedCache<unknown> {
      override set(key: string, at: string, value: unknown, bytes: number) {
        sizes.set(key.split("\n")[2], bytes);
        super.set(key, at, value, bytes);
      }
    }
    expect(cacheFor("mnemoRecallWholeBranches", t.db, () => new Recording(2 ** 30))).toBeInstanceOf(Recording);
    for (let round = 0; round < 10 && sizes.size < 2; round++) for (const question of QUESTIONS) await ask(question, version);
    expect([...sizes.keys()].sort()).toEqual(["channel", "workspace"]);
    const walk = await readOne<{ walk: number }>(
      t.db,
      `SELECT total(p.tf) AS walk FROM recall_branches b JOIN fact_terms p ON p.branch = b.id AND p.term = ''
        WHERE b.agent_id = 'scout' AND b.scope = 'channel' AND b.scope_ref = 'support'`,
      [],
    );

    // Then room for the workspace's branch, and for support's alone, but not for both.
    dropAllKept();
    const budget = sizes.get("workspace")! + walk!.walk * BYTES_PER_POSTING - 1;
    const whole = new VersionedCache(budget);
    expect(cacheFor("mnemoRecallWholeBranches", t.db, () => whole)).toBe(whole);
    keepNothing("mnemoRecallPostings");
    watch.texts.length = 0;
    for (let round = 0; round < 20; round++) {
      for (const [i, question] of QUESTIONS.entries()) expect(await ask(question, version)).toEqual(expected[i]);
    }
    // The workspace's branch, read whole once and used by every question, is never pushed out for support's.
    expect(wholeReads(watch.texts)).toHaveLength(1);
    expect(whole.size).toBe(1);
  });

  it("a branch being read whole is not bought again by the questions asked meanwhile", async () => {
    keepNothing("mnemoRecallPostings");
    const version = await versionNow();
    const { place } = await derivePlace(t.db, "acme", "support", "ana");
    const batch = () => Promise.all(QUESTIONS.map((question) => recallRanked(t.db, "scout", place, { question, version })));
    // Three batches in one turn of the event loop, before any purchase has read its first step: the workspace's
    // branch (three facts) costs a walk again with each seek, and is bought by the second batch's first question.
    await batch();
    await batch();
    await batch();
    await purchasesSettled();
    const workspaceReads = wholeReads(watch.texts).length;
    expect(workspaceReads).toBeGreaterThan(0);
    expect(workspaceReads).toBeLessThanOrEqual(2); // the workspace's, and at most support's
    // Bought once and kept: the next batch buys nothing again.
    watch.texts.length = 0;
    await batch();
    await purchasesSettled();
    expect(wholeReads(watch.texts)).toHaveLength(0);
  });

  it("reads a branch whole only once its seeks cost as much: at once for a tiny one, not for one of 66 facts", async () => {
    // The workspace's branch holds three facts: one seek costs more than reading them. Support's holds 66.
    const version = await versionNow();
    for (const question of QUESTIONS.slice(0, 2)) await ask(question, version);
    expect(wholeReads(watch.texts)).toHaveLength(1);
    expect(seeks(watch.texts)).toHaveLength(2);
  });

  it("keeps a matched fact's row from the second question that reads it on, not on its first read", async () => {
    const version = await versionNow();
    // As an agent asks: without the preview's list of every fact left out (which reads every row).
    const { place } = await derivePlace(t.db, "acme", "support", "ana");
    const agentAsks = async (question: string) => flatRanked(await recallRanked(t.db, "scout", place, { question, version }));
    const expected = flatRanked(await recallRanked(t.db, "scout", place, { question: "Priya approval" }));
    expect(expected.facts.filter((fact) => fact.why.matched.includes("priya"))).toHaveLength(8);
    watch.texts.length = 0;
    for (let i = 0; i < 2; i++) expect(await agentAsks("Priya approval")).toEqual(expected);
    // Read on each of the first two questions; kept from the second, so the third reads no row by seq.
    expect(readsBySeq(watch.texts)).toHaveLength(2);
    expect(await agentAsks("Priya approval")).toEqual(expected);
    expect(readsBySeq(watch.texts)).toHaveLength(2);
  });

  it("keeps a matched row only in room to spare, never at the cost of the pinned and newest rows every question reads", async () => {
    const version = await versionNow();
    const { place } = await derivePlace(t.db, "acme", "support", "ana");
    const agentAsks = async () => flatRanked(await recallRanked(t.db, "scout", place, { question: "Max", version }));
    const expected = flatRanked(await recallRanked(t.db, "scout", place, { question: "Max" }));
    expect(expected.facts.filter((fact) => fact.why.matched.includes("max")).length).toBeGreaterThanOrEqual(8);
    // What the place's rows cost kept after one question: its pinned and newest rows, and the matched seqs read once.
    let firstBytes = 0;
    class Recording extends VersionedCache<unknown> {
      override set(key: string, keptAt: string, value: unknown, bytes: number) {
        firstBytes ||= bytes;
        super.set(key, keptAt, value, bytes);
      }
    }
    expect(cacheFor("mnemoRecallRows", t.db, () => new Recording(2 ** 30))).toBeInstanceOf(Recording);
    expect(await agentAsks()).toEqual(expected);
    // Max's facts are among the oldest: not in the newest rows kept for the recency fill, so matched rows of their own.
    // Asked afresh with just less room than one more row beside another place's rows: the matched rows must wait, and
    // nothing leaves.
    dropAllKept();
    const tight = new VersionedCache(firstBytes + 4 * BYTES_PER_ROW + BYTES_PER_ROW - 1);
    expect(cacheFor("mnemoRecallRows", t.db, () => tight)).toBe(tight);
    tight.set("another place", "v1", "its rows", 4 * BYTES_PER_ROW);
    watch.texts.length = 0;
    for (let i = 0; i < 3; i++) expect(await agentAsks()).toEqual(expected);
    // The pinned and the newest rows read by the first question only, and kept; the matched rows read by every question.
    expect(listReads(watch.texts)).toHaveLength(2);
    expect(readsBySeq(watch.texts)).toHaveLength(3);
    expect(tight.get("another place", "v1")).toBe("its rows");
  });

  it("keeps what answers work out from kept rows (their JSON, their lines) only in room the rows leave", async () => {
    const version = await versionNow();
    const { place } = await derivePlace(t.db, "acme", "support", "ana");
    const agentAsks = () => recallRanked(t.db, "scout", place, { question: "Priya approval", version });
    const expected = flatRanked(await recallRanked(t.db, "scout", place, { question: "Priya approval" }));
    const withMemos = (answer: RankedRecall) => answer.facts.filter(({ fact }) => keepsMemos(fact)).length;
    // Room for everything: from the second question on (when its matched rows are kept), every fact keeps its memos.
    let roomyBytes = 0;
    class Recording extends VersionedCache<unknown> {
      override set(key: string, keptAt: string, value: unknown, bytes: number) {
        roomyBytes = bytes;
        super.set(key, keptAt, value, bytes);
      }
    }
    expect(cacheFor("mnemoRecallRows", t.db, () => new Recording(2 ** 30))).toBeInstanceOf(Recording);
    for (let i = 0; i < 2; i++) await agentAsks();
    const roomy = await agentAsks();
    expect(flatRanked(roomy)).toEqual(expected);
    expect(withMemos(roomy)).toBe(roomy.facts.length);
    // One memo's room short of that: every row is still kept (the third question reads none), one fact's memos are not.
    dropAllKept();
    const tight = new VersionedCache(roomyBytes - 1);
    expect(cacheFor("mnemoRecallRows", t.db, () => tight)).toBe(tight);
    watch.texts.length = 0;
    for (let i = 0; i < 2; i++) expect(flatRanked(await agentAsks())).toEqual(expected);
    expect(readsBySeq(watch.texts)).toHaveLength(2);
    const third = await agentAsks();
    expect(flatRanked(third)).toEqual(expected);
    expect(readsBySeq(watch.texts)).toHaveLength(2);
    // More matches than the answer holds, so no recency fill: the pinned list, read by the first question only.
    expect(listReads(watch.texts)).toHaveLength(1);
    expect(withMemos(third)).toBeLessThan(third.facts.length);
    expect(withMemos(third)).toBeGreaterThan(0);
    expect(BYTES_PER_MEMOS).toBeGreaterThan(BYTES_PER_ROW);
  });

  it("counts a row matched by words and by meaning in one question as one read", async () => {
    const version = await versionNow();
    const { place } = await derivePlace(t.db, "acme", "support", "ana");
    // Every fact the words match, the answer's and those left out: more than the answer holds, so no recency fill is read.
    const all = await ask("Priya approval");
    const matched = [...all.facts, ...all.leftOut].filter((fact) => fact.why.matched.length);
    expect(matched.length).toBeGreaterThan(40);
    // Meaning finds the same facts the words do, as an embeddings provider would for this question.
    const meaning = async () => matched.map((fact, i) => ({ id: fact.id, similarity: 1 - i / 1000 }));
    watch.texts.length = 0;
    for (let i = 0; i < 3; i++) {
      const answer = await recallRanked(t.db, "scout", place, { question: "Priya approval", version, meaning });
      expect(answer.ranking).toBe("question");
    }
    // Read by seq on the first two questions (the first read, then the second that keeps them); none on the third.
    expect(readsBySeq(watch.texts)).toHaveLength(2);
  });
});

describe("a branch read whole", () => {
  const SUPPORT = { scope: "channel" as const, ref: "support" };
  beforeEach(async () => {
    // Enough of scout's facts in #support for its branch to be read in several steps.
    for (let i = 0; i < 180; i++) {
      const body = `Refunds for ${THINGS[i % 8]} in region ${i} need ${PEOPLE[i % 7]}'s approval before day ${i % 29}.`;
      expect((await inSupport(body)).status).toBe("created");
    }
  });

  /** Support's postings as one walk of the branch reads them, by term: [fact, tf, len] each, as Postings hold them. */
  async function branchInOneWalk(): Promise<Map<string, number[]>> {
    const rows = await readAll<{ term: string; fact: number; tf: number; len: number }>(
      t.db,
      `SELECT p.term AS term, p.fact_seq AS fact, p.tf AS tf, p.len AS len FROM recall_branches b JOIN fact_terms p ON p.branch = b.id
        WHERE b.agent_id = 'scout' AND b.scope = 'channel' AND b.scope_ref = 'support' AND p.term <> ''
          AND p.proposed = 0 AND (p.valid_until IS NULL OR p.valid_until >= ?)
        ORDER BY p.term, p.fact_seq`,
      [utcDay()],
    );
    const byTerm = new Map<string, number[]>();
    for (const { term, fact, tf, len } of rows) byTerm.set(term, [...(byTerm.get(term) ?? []), fact, tf, len]);
    return byTerm;
  }

  /** That `whole` holds exactly what one walk of support's branch reads now. */
  async function expectOneWalk(whole: Vocabulary | undefined): Promise<void> {
    const expected = await branchInOneWalk();
    expect(whole).toBeDefined();
    expect([...whole!.terms].sort()).toEqual([...expected.keys()].sort());
    for (const [term, list] of expected) expect([...whole!.postingsOf(term)!], term).toEqual(list);
  }

  /** Support's branch as the cache of branches read whole holds it under `version` and today, if it does. */
  const keptWhole = async (version: string) => {
    const { place } = await derivePlace(t.db, "acme", "support", "ana");
    return cacheFor("mnemoRecallWholeBranches", t.db, () => new VersionedCache<Vocabulary>(2 ** 30)).get(branchKey("scout", place, SUPPORT), `${version}\n${utcDay()}`);
  };

  it("is read in steps, and holds every posting one walk of the branch reads, and is kept", async () => {
    const { place } = await derivePlace(t.db, "acme", "support", "ana");
    const version = await versionNow();
    const expected = await branchInOneWalk();
    const postings = [...expected.values()].reduce((n, list) => n + list.length / 3, 0);
    expect(postings).toBeGreaterThan(WHOLE_STEP);
    const watch = watchTexts(t.db);
    let steps = 1;
    const whole = await readWhole(t.db, "scout", place, SUPPORT, version, utcDay(), async () => {
      steps++;
    });
    watch.stop();
    expect(steps).toBe(Math.ceil((postings + 1) / WHOLE_STEP));
    expect(wholeReads(watch.texts)).toHaveLength(steps);
    await expectOneWalk(whole);
    expect(await keptWhole(version)).toBe(whole);
  });

  it("keeps nothing when the agent's facts change between its steps", async () => {
    const { place } = await derivePlace(t.db, "acme", "support", "ana");
    const version = await versionNow();
    let changed = false;
    const whole = await readWhole(t.db, "scout", place, SUPPORT, version, utcDay(), async () => {
      if (changed) return;
      changed = true;
      expect((await inSupport("Refunds for drones need Chen's approval.")).status).toBe("created");
    });
    expect(changed).toBe(true);
    expect(whole).toBeUndefined();
    expect(await keptWhole(version)).toBeUndefined();
    // Under the new version it is read whole again, the new fact's postings with it.
    const after = await versionNow();
    const again = await readWhole(t.db, "scout", place, SUPPORT, after, utcDay());
    await expectOneWalk(again);
    expect(await keptWhole(after)).toBe(again);
  });
});
