/**
 * Fitting recall's prompt section to an agent's token budget. Tokens are counted
 * with a real tokenizer, OpenAI's o200k_base BPE (the `gpt-tokenizer` package), not
 * guessed from characters; other models' tokenizers differ by a few percent, so an
 * agent with a tight context should leave itself that margin.
 *
 * Counting is by line, and exact: every line of the section ends in ")" and the next
 * begins with "- [", and o200k_base's pre-tokenizer always cuts between a newline and
 * a "-", so the section's size is the head's plus each line's (with its newline, the
 * last without) — token-budget.test.ts checks that sum against the whole section for
 * any text. A line's sizes are worked out once and kept by its text.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { StoredFact } from "./fact-columns";
import { SECTION_HEAD, sectionLine } from "./prompt-section";

export const TOKENIZER = "o200k_base";

const HEAD_TOKENS = countTokens(SECTION_HEAD);

/** A fact's line, and its size alone (the last line) and followed by a newline (any other). */
export type SizedLine = { line: string; last: number; inside: number };

// Kept with the fact while recall keeps its row (recall-candidates.ts), and by the line's text for rows read afresh.
const sizedFacts = new WeakMap<StoredFact, SizedLine>();
const sized = new Map<string, SizedLine>();
/** Lines whose sizes are kept by text (~200 bytes each); past this many the list starts again. */
const MAX_SIZED = 50_000;

export function sizedLine(fact: StoredFact): SizedLine {
  let known = sizedFacts.get(fact);
  if (known) return known;
  const line = sectionLine(fact);
  known = sized.get(line);
  if (!known) {
    const last = countTokens(line);
    known = { line, last, inside: last + newlineCost(line) };
    if (sized.size >= MAX_SIZED) sized.clear();
    sized.set(line, known);
  }
  sizedFacts.set(fact, known);
  return known;
}

/**
 * What a newline after the line adds to its size. The pre-tokenizer cuts text into
 * pieces and BPE never merges across them, so a newline can change only the line's
 * last piece, which (every line ending in ")") is its closing run of punctuation, a
 * space before it included: the tokens of that piece with and without the newline,
 * kept by piece (there are few), instead of counting the whole line twice.
 */
const LAST_PIECE = / ?[^\s\p{L}\p{N}]+$/u;
const newlineCosts = new Map<string, number>();

function newlineCost(line: string): number {
  const piece = LAST_PIECE.exec(line)?.[0] ?? line;
  let cost = newlineCosts.get(piece);
  if (cost === undefined) {
    cost = countTokens(`${piece}\n`) - countTokens(piece);
    if (newlineCosts.size >= MAX_SIZED) newlineCosts.clear();
    newlineCosts.set(piece, cost);
  }
  return cost;
}

/** A section being filled line by line, with its exact size in tokens at every step. */
export class Section {
  private readonly lines: SizedLine[] = [];
  /** The size of the section so far; 0 while it has no line (there is no section then). */
  tokens = 0;

  get length(): number {
    return this.lines.length;
  }

  /** The size the section would have with `next` added at the end: the line that was last gains its newline. */
  with(next: SizedLine): number {
    const last = this.lines.at(-1);
    return last ? this.tokens - last.last + last.inside + next.last : HEAD_TOKENS + next.last;
  }

  add(next: SizedLine): void {
    this.tokens = this.with(next);
    this.lines.push(next);
  }

  /** The prompt section, or null with no line. */
  text(): string | null {
    return this.lines.length ? SECTION_HEAD + this.lines.map((sized) => sized.line).join("\n") : null;
  }
}
