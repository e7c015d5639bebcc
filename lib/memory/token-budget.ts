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
import { createRequire } from "node:module";
import type { StoredFact } from "./fact-columns";
import { SECTION_HEAD, sectionLine, type SectionFact } from "./prompt-section";
import { KeptValues } from "./kept-values";
import { rowMemo } from "./row-memo";

export const TOKENIZER = "o200k_base";

type Counter = (text: string) => number;
let counter: Counter | undefined;

/**
 * o200k_base's token counter, its encoder loaded on first use: loading its ranks takes
 * most of a second, which every process importing this module — each CLI command,
 * each test file — paid at start whether it counted anything or not. The server loads
 * it before it is ready (instrumentation.ts), through this same require: an import()
 * there would load the package's ESM copy, and recall would load the CommonJS one again.
 */
export function loadTokenizer(): Counter {
  return (counter ??= (createRequire(import.meta.url)("gpt-tokenizer/encoding/o200k_base") as { countTokens: Counter }).countTokens);
}

const countTokens = (text: string) => loadTokenizer()(text);

let headTokens: number | undefined;
const sectionHeadTokens = () => (headTokens ??= countTokens(SECTION_HEAD));

/** A fact's line, and its size alone (the last line) and followed by a newline (any other). */
export type SizedLine = { line: string; last: number; inside: number };

// Kept with the fact while recall keeps its row (recall-candidates.ts), and by the line's text for rows read afresh.
const SIZED = Symbol("sizedLine");
/** Lines whose sizes are kept by text (~200 bytes each), up to 50,000. */
const sized = new KeptValues<string, SizedLine>(50_000);

export function sizedLine(fact: StoredFact): SizedLine {
  return rowMemo(fact, SIZED, () => {
    const line = sectionLine(fact);
    return (fact.lineSize != null ? fromStored(fact.lineSize, line) : undefined) ?? sized.get(line, count);
  });
}

function count(line: string): SizedLine {
  const last = countTokens(line);
  return { line, last, inside: last + newlineCost(line) };
}

/**
 * A fact's line size as its row keeps it (facts.line_size), worked out by the writer
 * that makes the line: a recall that reads the row afresh — most of them, where many
 * agents' memories do not all fit in what a process keeps — then counts no tokens,
 * and BPE over a fact's random id is its worst case. One integer: a 32-bit FNV-1a
 * hash of the line, the line's size alone (18 bits) and what a newline after it adds
 * (2 bits). A size is used only for the line it was counted for, so a writer that
 * changes the line and not the size (pinning adds ", pinned") costs a count, never a
 * wrong size. Null for a line too long to pack (never, for a fact within its limit).
 */
export function storedLineSize(fact: SectionFact): number | null {
  const { line, last, inside } = count(sectionLine(fact));
  const extra = inside - last;
  if (last >= 2 ** 18 || extra < 0 || extra > 3) return null;
  return lineHash(line) * 2 ** 20 + last * 4 + extra;
}

function fromStored(stored: number, line: string): SizedLine | undefined {
  if (Math.floor(stored / 2 ** 20) !== lineHash(line)) return undefined;
  const low = stored % 2 ** 20;
  const last = low >>> 2;
  return { line, last, inside: last + (low & 3) };
}

/** 32-bit FNV-1a over the line's UTF-16 code units. */
function lineHash(line: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < line.length; i++) hash = Math.imul(hash ^ line.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * What a newline after the line adds to its size. The pre-tokenizer cuts text into
 * pieces and BPE never merges across them, so a newline can change only the line's
 * last piece, which (every line ending in ")") is its closing run of punctuation, a
 * space before it included: the tokens of that piece with and without the newline,
 * kept by piece (there are few), instead of counting the whole line twice.
 */
const LAST_PIECE = / ?[^\s\p{L}\p{N}]+$/u;
const newlineCosts = new KeptValues<string, number>(50_000);

function newlineCost(line: string): number {
  return newlineCosts.get(LAST_PIECE.exec(line)?.[0] ?? line, countNewlineCost);
}

function countNewlineCost(piece: string): number {
  return countTokens(`${piece}\n`) - countTokens(piece);
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
    return last ? this.tokens - last.last + last.inside + next.last : sectionHeadTokens() + next.last;
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
