/**
 * Recall, ranked by what the agent is asking: the one path the agent API and the
 * Memory page's preview both take. The rules decide the candidates (in SQL, branch by
 * branch, then once more with the pure rule); words and, when configured, meaning
 * decide only their order; the limit and the token budget decide where it stops.
 */
import type { Conn } from "@/db/client";
import { RECALL_LIMIT, recallable, utcDay, type Place } from "./rules";
import { rankRecall, type Nearest, type RankedRecall } from "./ranking";
import { recallCandidates } from "./recall-candidates";
import { recall, recallableCount, type RecallBranch } from "./store";
import { questionWords } from "./terms";
import { scoreByWords } from "./word-index";

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
  /** The agent's memory version, when the caller read it (API requests): lets word indexes be reused. */
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
): Promise<RankedRecall> {
  const limit = options.limit ?? RECALL_LIMIT;
  const question = options.question?.trim();
  const fit = { limit, budget: options.budget, explain: options.explain };
  const today = options.today ?? utcDay();
  if (!question) {
    // Today's order needs only the newest RECALL_LIMIT of each branch, read straight off the index.
    const [newest, considered] = await Promise.all([
      recall(db, agentId, place, today),
      recallableCount(db, agentId, place, today),
    ]);
    return rankRecall([newest], { ...fit, words: null, nearest: null, considered, allowed: (fact) => recallable(fact, place, today) });
  }
  const { branches, indexes, allowed } = await recallCandidates(db, agentId, place, options.version, today);
  const asked = questionWords(question);
  const [words, nearest] = await Promise.all([
    // A question of stop words only ("what is it?") has nothing to rank by: recency, unless meaning finds something.
    asked.length ? scoreByWords(indexes, asked, allowed) : null,
    options.meaning ? options.meaning(branches, question, today) : null,
  ]);
  return rankRecall(
    indexes.map((index) => index.facts),
    { ...fit, words, nearest, allowed },
  );
}
