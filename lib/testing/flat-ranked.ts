/**
 * A ranked answer with each fact's row fields and receipt side by side, as the API's
 * answer has them: tests read `fact.body` and `fact.why` alike on both.
 */
import type { StoredFact } from "@/lib/memory/fact-columns";
import type { LeftOutFact, RankedFact, RankedRecall } from "@/lib/memory/ranking";

export type FlatRecall = Omit<RankedRecall, "facts" | "leftOut"> & {
  facts: (StoredFact & { why: RankedFact["why"] })[];
  leftOut: (StoredFact & { why: LeftOutFact["why"]; reason: LeftOutFact["reason"] })[];
};

export function flatRanked(answer: RankedRecall): FlatRecall {
  return {
    ...answer,
    facts: answer.facts.map(({ fact, why }) => ({ ...fact, why })),
    leftOut: answer.leftOut.map(({ fact, why, reason }) => ({ ...fact, why, reason })),
  };
}
