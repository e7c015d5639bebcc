/**
 * Fitting recall's prompt section to an agent's token budget. Tokens are counted
 * with a real tokenizer, OpenAI's o200k_base BPE (the `gpt-tokenizer` package), not
 * guessed from characters; other models' tokenizers differ by a few percent, so an
 * agent with a tight context should leave itself that margin.
 *
 * Facts are taken in their ranked order and dropped whole, never cut: one that does
 * not fit is left out and the next, shorter one may still fit. The size of a line is
 * counted once and kept; the sum of lines is checked against the whole section at
 * the end, because a tokenizer may join characters across a line break.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { SECTION_HEAD, memorySection, sectionLine } from "./prompt-section";
import type { StoredFact } from "./fact-columns";

export const TOKENIZER = "o200k_base";

/** Line sizes already counted; lines repeat from recall to recall, so this is mostly hits. */
const lineTokens = new Map<string, number>();
const MAX_KEPT_LINES = 20_000;

function tokensOfLine(line: string): number {
  let tokens = lineTokens.get(line);
  if (tokens === undefined) {
    tokens = countTokens(`${line}\n`);
    if (lineTokens.size >= MAX_KEPT_LINES) lineTokens.clear();
    lineTokens.set(line, tokens);
  }
  return tokens;
}

const HEAD_TOKENS = countTokens(SECTION_HEAD);

/** The size of the section these facts make, exactly; 0 when there is none. */
export function sectionTokens(facts: StoredFact[]): number {
  const section = memorySection(facts);
  return section ? countTokens(section) : 0;
}

export type Fitted<F> = { kept: F[]; overLimit: F[]; overBudget: F[]; section: string | null; tokens: number };

/**
 * The facts, in order, that fit both `limit` and `budget` (tokens for the whole
 * section); the rest, by which of the two left them out.
 */
export function fitToBudget<F extends StoredFact>(ordered: readonly F[], limit: number, budget?: number): Fitted<F> {
  const kept: F[] = [];
  const overLimit: F[] = [];
  const overBudget: F[] = [];
  let estimate = HEAD_TOKENS;
  for (const fact of ordered) {
    if (kept.length >= limit) {
      overLimit.push(fact);
      continue;
    }
    const size = budget === undefined ? 0 : tokensOfLine(sectionLine(fact));
    if (budget !== undefined && estimate + size > budget) {
      overBudget.push(fact);
      continue;
    }
    estimate += size;
    kept.push(fact);
  }
  let tokens = sectionTokens(kept);
  // Rare: the whole counts more than its parts. Give back the last facts until it fits.
  while (budget !== undefined && tokens > budget && kept.length) {
    overBudget.unshift(kept.pop()!);
    tokens = sectionTokens(kept);
  }
  return { kept, overLimit, overBudget, section: memorySection(kept), tokens };
}
