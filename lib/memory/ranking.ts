/**
 * The order of a recall, and the receipt for each fact in it. Pure: it is handed the
 * facts the rules allow in the place (already read through the rules in SQL) and the
 * relevance found for them, and only ever reorders and trims them — it cannot add a
 * fact, so it cannot widen what an agent recalls.
 *
 * The order: pinned facts first (people's curation always wins; among themselves the
 * most relevant first), then the facts that answer the question, most relevant first,
 * then the rest by recency — all of it within `limit` and the token `budget`. Without
 * a question the order is recency throughout, as recall has always been.
 *
 * It is built to cost what the answer costs, not what the place holds: the rest is
 * merged lazily from lists already in recency order, and the walk stops at the limit.
 */
import type { Ranking } from "@/lib/validation/agent-api";
import type { StoredFact } from "./fact-columns";
import { Section, sizedLine } from "./token-budget";
import type { WordHit } from "./word-index";

/** Why a fact is in the answer: the `why` of the API. */
export type Receipt = { pinned: boolean; rank: number; score: number | null; matched: string[] };
/**
 * A fact of the answer — its row, as read and kept (never written to here) — and its
 * receipt. A pair rather than the row's fields with the receipt among them: copying a
 * row's twenty-odd fields for each of 40 facts was a tenth of a question's cost where
 * rows are kept (10k facts), and making the row the prototype of an object with the
 * receipt cost as much where rows are read afresh (1M): V8 gives every object made a
 * prototype a map of its own.
 */
export type RankedFact<Fact extends StoredFact = StoredFact> = { fact: Fact; why: Receipt };
/** A fact the place allows that the answer left out, and what left it out. */
export type LeftOutFact<Fact extends StoredFact = StoredFact> = { fact: Fact; why: Omit<Receipt, "rank">; reason: "limit" | "budget" };

/** The answer, its facts as the caller gave them (recall's carry their seq, which counting them needs). */
export type RankedRecall<Fact extends StoredFact = StoredFact> = {
  facts: RankedFact<Fact>[];
  /** Filled only when asked to explain (the Memory page's preview); agents get the count. */
  leftOut: LeftOutFact<Fact>[];
  ranking: Ranking;
  /** Facts allowed here: what the ranking chose from. */
  considered: number;
  section: string | null;
  tokens: number;
};

/** The facts nearest the question by meaning, nearest first (lib/embeddings/meaning.ts). */
export type Nearest = readonly { id: string; similarity: number }[];

export type RankOptions<Fact extends StoredFact = StoredFact> = {
  /** Word relevance of the facts that matched the question; null when it had no words to rank by (or there was none). */
  words: Map<Fact, WordHit> | null;
  /** Facts near the question's meaning; null when meaning was not used (none configured, or it failed). */
  nearest: Nearest | null;
  limit: number;
  budget?: number;
  /** A second check behind the SQL: a fact this refuses is never in the answer nor counted. */
  allowed: (fact: Fact) => boolean;
  /** How many facts the place allows, when the lists hold only the newest of them (recall without a question); else the lists' length. */
  considered?: number;
  /** Also list every fact left out, with its reason. */
  explain?: boolean;
};

/** Reciprocal rank fusion's constant: a fact's rank in each list counts as 1 / (K + rank). */
const FUSION_K = 60;
/** Once the budget refuses a fact, how many more are tried for one short enough to fit. */
export const BUDGET_LOOKAHEAD = 40;

/** Newest first; the id breaks ties, as the recall index does. */
export function byRecency(a: StoredFact, b: StoredFact): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

type Relevance = { score: number; matched: string[] };

/**
 * Each matching fact's relevance: BM25 alone, or BM25's and meaning's ranks fused.
 * The word hits are this request's own, so they are taken over, not copied.
 */
function relevanceOf<Fact extends StoredFact>(
  lists: readonly (readonly Fact[])[],
  words: Map<Fact, WordHit>,
  nearest: Nearest | null,
): Map<Fact, Relevance> {
  const relevance = new Map<Fact, Relevance>(words);
  if (!nearest) return relevance;
  [...words]
    .sort(([a, x], [b, y]) => y.score - x.score || byRecency(a, b))
    .forEach(([, hit], i) => (hit.score = 1 / (FUSION_K + i + 1)));
  const byId = new Map(nearest.map(({ id }, i) => [id, i]));
  for (const list of lists) {
    for (const fact of list) {
      const i = byId.get(fact.id);
      if (i === undefined) continue;
      const score = 1 / (FUSION_K + i + 1);
      const known = relevance.get(fact);
      if (known) {
        known.score += score;
        known.matched.push("meaning");
      } else relevance.set(fact, { score, matched: ["meaning"] });
    }
  }
  return relevance;
}

/**
 * Lists in recency order (each a branch's facts, pinned first then newest), merged
 * lazily: a cursor that gives the next fact, newest first, pinned skipped, and
 * undefined at the end. A cursor, not a generator: whatever a generator's frame had
 * pointed to outlived V8's young collections until the next full one — on the agent
 * thread, each question's facts, receipts and lines promoted to the old generation
 * (BENCHMARKS.md, fourteenth session).
 */
function unpinnedByRecency<Fact extends StoredFact>(lists: readonly (readonly Fact[])[]): () => Fact | undefined {
  const at = lists.map((list) => {
    let i = 0;
    while (i < list.length && list[i].pinned) i++;
    return i;
  });
  return () => {
    let best = -1;
    for (let l = 0; l < lists.length; l++) {
      if (at[l] < lists[l].length && (best < 0 || byRecency(lists[l][at[l]], lists[best][at[best]]) < 0)) best = l;
    }
    return best < 0 ? undefined : lists[best][at[best]++];
  };
}

/** Scores shown to agents: four significant digits are all a comparison needs. */
const shown = (score: number) => Number(score.toPrecision(4));

/**
 * Ranks facts given as lists in recall order (pinned first, then newest) — one list
 * per recall branch — and fits them to `limit` and `budget`.
 */
export function rankRecall<Fact extends StoredFact>(lists: readonly (readonly Fact[])[], options: RankOptions<Fact>): RankedRecall<Fact> {
  const { words, nearest, limit, budget, allowed } = options;
  const relevance = words || nearest ? relevanceOf(lists, words ?? new Map(), nearest) : new Map<Fact, Relevance>();
  const score = (fact: StoredFact) => relevance.get(fact)?.score ?? 0;
  const byRelevance = (a: StoredFact, b: StoredFact) => score(b) - score(a) || byRecency(a, b);

  // Each list is in recall order, so its pinned facts are its head: nothing else is walked here.
  const pinned: Fact[] = [];
  for (const list of lists) for (let i = 0; i < list.length && list[i].pinned; i++) pinned.push(list[i]);
  pinned.sort(byRelevance);
  // Scores read once into pairs: a common word can match hundreds of facts, and the sort compares each many times.
  const scored: { fact: Fact; score: number }[] = [];
  for (const [fact, { score }] of relevance) if (!fact.pinned && allowed(fact)) scored.push({ fact, score });
  scored.sort((a, b) => b.score - a.score || byRecency(a.fact, b.fact));
  const matching = scored.map(({ fact }) => fact);
  // The answer's order — pinned, matching, then the others newest first — as a cursor (see unpinnedByRecency); the
  // rule is checked again for every fact on its way to the answer.
  const others = unpinnedByRecency(lists);
  let nextPinned = 0;
  let nextMatching = 0;
  const next = (): Fact | undefined => {
    while (nextPinned < pinned.length) {
      const fact = pinned[nextPinned++];
      if (allowed(fact)) return fact;
    }
    if (nextMatching < matching.length) return matching[nextMatching++];
    for (let fact = others(); fact; fact = others()) if (allowed(fact) && !relevance.has(fact)) return fact;
    return undefined;
  };

  const receipt = (fact: StoredFact): Omit<Receipt, "rank"> => {
    const found = relevance.get(fact);
    return { pinned: fact.pinned, score: found ? shown(found.score) : null, matched: found?.matched ?? [] };
  };
  // Its fields written out, not spread from receipt(): the object this spread made outlived the young
  // collections until the next full one, with all it pointed to, like a generator's (see unpinnedByRecency;
  // measured, BENCHMARKS.md).
  const rankedReceipt = (fact: StoredFact, rank: number): Receipt => {
    const { pinned, score, matched } = receipt(fact);
    return { pinned, score, matched, rank };
  };
  const kept: RankedFact<Fact>[] = [];
  const leftOut: LeftOutFact<Fact>[] = [];
  const section = new Section();
  let refusedAt = -1;
  let seen = 0;
  for (let fact = next(); fact; fact = next()) {
    seen++;
    const full = kept.length >= limit || (refusedAt >= 0 && seen - refusedAt > BUDGET_LOOKAHEAD);
    if (full) {
      if (!options.explain) break;
      leftOut.push({ fact, why: receipt(fact), reason: kept.length >= limit ? "limit" : "budget" });
      continue;
    }
    const line = sizedLine(fact);
    if (budget !== undefined && section.with(line) > budget) {
      if (refusedAt < 0) refusedAt = seen;
      if (options.explain) leftOut.push({ fact, why: receipt(fact), reason: "budget" });
      continue;
    }
    section.add(line);
    kept.push({ fact, why: rankedReceipt(fact, kept.length + 1) });
  }
  return {
    facts: kept,
    leftOut,
    ranking: nearest ? "question" : words ? "question (words only)" : "recency",
    considered: options.considered ?? lists.reduce((sum, list) => sum + list.length, 0),
    section: section.text(),
    tokens: section.tokens,
  };
}
