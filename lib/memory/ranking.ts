/**
 * The order of a recall, and the receipt for each fact in it. Pure: it is handed the
 * facts the rules allow in the place (already read through the rules in SQL) and the
 * relevance found for them, and only ever reorders and trims that list — it cannot add
 * a fact, so it cannot widen what an agent recalls.
 *
 * The order: pinned facts first (people's curation always wins; among themselves the
 * most relevant first), then the facts that answer the question, most relevant first,
 * then the rest by recency — and all of it within `limit` and the token `budget`.
 * Without a question the order is recency throughout, as recall has always been.
 */
import type { Ranking } from "@/lib/validation/agent-api";
import type { StoredFact } from "./fact-columns";
import { fitToBudget } from "./token-budget";
import type { WordHit } from "./word-index";

/** Why a fact is in the answer: the `why` of the API. */
export type Receipt = { pinned: boolean; rank: number; score: number | null; matched: string[] };
export type RankedFact = StoredFact & { why: Receipt };
/** A fact the place allows that the answer left out, and what left it out. */
export type LeftOutFact = StoredFact & { why: Omit<Receipt, "rank">; reason: "limit" | "budget" };

export type RankedRecall = {
  facts: RankedFact[];
  leftOut: LeftOutFact[];
  ranking: Ranking;
  /** Facts allowed here: what the ranking chose from. */
  considered: number;
  section: string | null;
  tokens: number;
};

/** The facts nearest the question by meaning, nearest first (lib/embeddings/meaning.ts). */
export type Nearest = readonly { id: string; similarity: number }[];

export type RankOptions = {
  /** Word relevance of the facts that matched the question; null when there was no question. */
  words: ReadonlyMap<StoredFact, WordHit> | null;
  /** Facts near the question's meaning; null when meaning was not used (none configured, or it failed). */
  nearest: Nearest | null;
  limit: number;
  budget?: number;
  /** How many facts the place allows, when `candidates` is only the newest of them (recall without a question). */
  considered?: number;
};

/** Reciprocal rank fusion's constant: a fact's rank in each list counts as 1 / (K + rank). */
const FUSION_K = 60;

/** Newest first; the id breaks ties, as the recall index does. */
export function byRecency(a: StoredFact, b: StoredFact): number {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt < b.updatedAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

type Relevance = { score: number; matched: string[] };

/** Each matching fact's relevance: BM25 alone, or BM25's and meaning's ranks fused. */
function relevanceOf(
  candidates: readonly StoredFact[],
  words: ReadonlyMap<StoredFact, WordHit>,
  nearest: Nearest | null,
): Map<string, Relevance> {
  const relevance = new Map<string, Relevance>();
  if (!nearest) {
    for (const [fact, hit] of words) relevance.set(fact.id, { score: hit.score, matched: [...hit.matched] });
    return relevance;
  }
  const byWords = [...words].sort(([a, x], [b, y]) => y.score - x.score || byRecency(a, b));
  byWords.forEach(([fact, hit], i) => {
    relevance.set(fact.id, { score: 1 / (FUSION_K + i + 1), matched: [...hit.matched] });
  });
  const here = new Set(candidates.map((fact) => fact.id));
  nearest
    .filter(({ id }) => here.has(id))
    .forEach(({ id }, i) => {
      const score = 1 / (FUSION_K + i + 1);
      const known = relevance.get(id);
      if (known) {
        known.score += score;
        known.matched.push("meaning");
      } else relevance.set(id, { score, matched: ["meaning"] });
    });
  return relevance;
}

/** Scores shown to agents: four significant digits are all a comparison needs. */
const shown = (score: number) => Number(score.toPrecision(4));

export function rankRecall(candidates: readonly StoredFact[], options: RankOptions): RankedRecall {
  const { words, nearest, limit, budget } = options;
  const relevance = words ? relevanceOf(candidates, words, nearest) : new Map<string, Relevance>();
  const score = (fact: StoredFact) => relevance.get(fact.id)?.score ?? 0;
  const byRelevance = (a: StoredFact, b: StoredFact) => score(b) - score(a) || byRecency(a, b);

  const pinned = candidates.filter((fact) => fact.pinned).sort(byRelevance);
  const matching = candidates.filter((fact) => !fact.pinned && relevance.has(fact.id)).sort(byRelevance);
  const rest = candidates.filter((fact) => !fact.pinned && !relevance.has(fact.id)).sort(byRecency);
  const fitted = fitToBudget([...pinned, ...matching, ...rest], limit, budget);

  const receipt = (fact: StoredFact): Omit<Receipt, "rank"> => {
    const found = relevance.get(fact.id);
    return { pinned: fact.pinned, score: found ? shown(found.score) : null, matched: found?.matched ?? [] };
  };
  return {
    facts: fitted.kept.map((fact, i) => ({ ...fact, why: { ...receipt(fact), rank: i + 1 } })),
    leftOut: [
      ...fitted.overBudget.map((fact) => ({ ...fact, why: receipt(fact), reason: "budget" as const })),
      ...fitted.overLimit.map((fact) => ({ ...fact, why: receipt(fact), reason: "limit" as const })),
    ],
    ranking: !words ? "recency" : nearest ? "question" : "question (words only)",
    considered: options.considered ?? candidates.length,
    section: fitted.section,
    tokens: fitted.tokens,
  };
}
