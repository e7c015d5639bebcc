/**
 * What a fact's row keeps worked out from its text and labels: its terms (ranked
 * recall's words, terms.ts, which drizzle/0015's triggers turn into postings) and its
 * prompt line's size (recall's token budget, token-budget.ts). Every writer that sets
 * a fact's text or a label sets both from here in the same statement, so a row never
 * keeps words or a size of a line it no longer has.
 */
import type { SectionFact } from "./prompt-section";
import { factTerms } from "./terms";
import { storedLineSize } from "./token-budget";

export type DerivedFrom = SectionFact & { scopeLabel: string | null };

/** The `terms` and `line_size` columns for a fact as it will read. */
export function derivedColumns(fact: DerivedFrom): { terms: string; lineSize: number | null } {
  return { terms: factTerms(fact.body, fact.scopeLabel, fact.sourceLabel), lineSize: storedLineSize(fact) };
}
