/**
 * Recall, ranked by what the agent is asking: the one path the agent API and the
 * Memory page's preview both take. The rules decide the candidates (in SQL, branch by
 * branch, then once more with the pure rule); words and, when configured, meaning
 * decide only their order; the limit and the token budget decide where it stops.
 */
import type { Conn } from "@/db/client";
import { RECALL_LIMIT, recallable, utcDay, type Place } from "./rules";
import { BUDGET_LOOKAHEAD, byRecency, rankRecall, type Nearest, type RankedRecall } from "./ranking";
import { placePostings, readCandidates } from "./recall-candidates";
import { inBranch, recall, recallBranches, recallableCount, type RecallBranch } from "./store";
import type { CandidateFact, StoredFact } from "./fact-columns";
import { questionWords } from "./terms";
import { scoreByWords, type WordHit } from "./word-index";

/**
 * What meaning found for a question among these branches: nearest facts, or null
 * when it was not used (no provider, or it failed — recall then ranks by words and
 * says so). Given by the caller, so this module reads no configuration.
 */
export type MeaningLookup = (branches: RecallBranch[], question: string, today: string) => Promise<Nearest | null>;

export type RecallOptions = {
  /** What the conversation is about; blank or missing means recency order. */
  question?: string;
  limit?: number;
  budget?: number;
  /** The agent's memory version, when the caller read it (API requests): lets what a question reads of the place (statistics, postings, vocabulary, rows) be kept and reused. */
  version?: string;
  meaning?: MeaningLookup;
  /** Also list each fact left out and why (the Memory page's preview); agents get only the count. */
  explain?: boolean;
  /** The UTC day ("YYYY-MM-DD") expiry is judged by, once for the whole request; today by default. */
  today?: string;
};

export async function recallRanked(
  db: Conn,
  agentId: string,
  place: Place,
  options: RecallOptions = {},
): Promise<RankedRecall<CandidateFact>> {
  const limit = options.limit ?? RECALL_LIMIT;
  const question = options.question?.trim();
  const { budget, explain } = options;
  const today = options.today ?? utcDay();
  if (!question) {
    // Today's order needs only the newest RECALL_LIMIT of each branch, read straight off the index.
    const [newest, considered] = await Promise.all([
      recall(db, agentId, place, today),
      recallableCount(db, agentId, place, today),
    ]);
    return rankRecall([newest], { limit, budget, explain, words: null, nearest: null, considered, allowed: (fact) => recallable(fact, place, today) });
  }
  const allowed = (fact: StoredFact) => recallable(fact, place, today);
  const branches = recallBranches(place);
  const asked = questionWords(question);
  const [postings, nearest] = await Promise.all([
    placePostings(db, agentId, place, branches, asked, options.version, today),
    options.meaning ? options.meaning(branches, question, today) : null,
  ]);
  // A question of stop words only ("what is it?") has nothing to rank by: recency, unless meaning finds something.
  const hits = asked.length ? scoreByWords(postings, asked) : null;

  // The answer walks at most `limit` facts, limit + BUDGET_LOOKAHEAD with a budget (ranking.ts): pinned first,
  // then matches, then the newest others. So the matches read whole are the best that many (ties at the edge
  // included) — all of them when meaning's ranks are fused with the words', which ranks every match — and the
  // newest others only as many as the matches leave room for.
  const walk = budget === undefined ? limit : limit + BUDGET_LOOKAHEAD;
  const matched = [...(hits?.keys() ?? [])];
  let matches = matched;
  if (!nearest && hits && matched.length > walk) {
    const edge = matched.map((seq) => hits.get(seq)!.score).sort((a, b) => b - a)[walk - 1];
    matches = matched.filter((seq) => hits.get(seq)!.score >= edge);
  }
  const newest = Math.max(0, walk - matched.length);
  const nearestIds = nearest?.map(({ id }) => id) ?? [];
  const want = { all: !!explain, matches, matched, nearest: nearestIds, newest, newestDepth: walk + nearestIds.length };
  const facts = await readCandidates(db, agentId, place, branches, want, today, options.version);

  const words = hits && new Map<CandidateFact, WordHit>();
  if (hits && words) {
    for (const fact of facts) {
      const hit = hits.get(fact.seq);
      if (hit) words.set(fact, hit);
    }
  }
  // The options written out, not spread: this spread too kept the question's objects alive (rankedReceipt, ranking.ts).
  return rankRecall(listsByBranch(facts, branches), { limit, budget, explain, words, nearest, allowed, considered: postings.count });
}

/** The facts read, one list per branch in recall order (pinned first, then newest), as rankRecall takes them. */
function listsByBranch(facts: readonly CandidateFact[], branches: readonly RecallBranch[]): CandidateFact[][] {
  const lists = branches.map(() => [] as CandidateFact[]);
  for (const fact of facts) {
    const i = branches.findIndex((branch) => inBranch(branch, fact.scope, fact.scopeRef));
    if (i >= 0) lists[i].push(fact);
  }
  for (const list of lists) list.sort((a, b) => Number(b.pinned) - Number(a.pinned) || byRecency(a, b));
  return lists;
}
