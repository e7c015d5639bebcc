/**
 * What a fact's row keeps worked out from its text and labels: its terms (ranked
 * recall's words, terms.ts, which drizzle/0015's triggers turn into postings) and its
 * prompt line's size (recall's token budget, token-budget.ts). Every writer that sets
 * a fact's text or a label sets both from here in the same statement, so a row never
 * keeps words or a size of a line it no longer has.
 */
import type { SqlArg } from "@/db/plain-sql";
import type { SectionFact } from "./prompt-section";
import { factTerms } from "./terms";
import { storedLineSize } from "./token-budget";

export type DerivedFrom = SectionFact & { scopeLabel: string | null };

/** The `terms` and `line_size` columns for a fact as it will read. */
export function derivedColumns(fact: DerivedFrom): { terms: string; lineSize: number | null } {
  return { terms: factTerms(fact.body, fact.scopeLabel, fact.sourceLabel), lineSize: storedLineSize(fact) };
}

/**
 * drizzle/0015's stale guard empties the terms of a fact whose text or label changed while
 * its terms stayed the same: it cannot tell plain SQL that forgot them from a writer whose
 * new text has the same words ("(3)" → "[3]", "#support" → "#Support"), and such a fact
 * would be out of ranked recall until the next start's fill. Every writer that sets a fact's
 * text or a label runs this right after: the terms go back, and the postings with them.
 */
export function sameTermsBack(factId: string, terms: string): { text: string; args: SqlArg[] } {
  return { text: "UPDATE facts SET terms = ? WHERE id = ? AND terms IS NULL", args: [terms, factId] };
}
