/**
 * Look-alikes: a new fact that says almost what a kept fact says — an edit, a typo, a
 * changed day or amount, the same words reordered — is likely a replacement, so the
 * answer to remember and the Memory page can offer to replace the older one (issue #15).
 * Identical facts are not look-alikes: dedupe (fact-text.ts `dedupeKey`) already keeps one.
 *
 * Pure: no I/O. Words are compared as recall compares them (terms.ts: folded, stemmed),
 * with function words out but negations kept, since "not" turns a fact into its opposite.
 *
 * The score blends two views of the same pair (weights and threshold below):
 * - words: the content terms both share, as a Dice coefficient, where a misspelt word
 *   counts almost as the same word, and a number, weekday or month standing where the
 *   other fact has a different one counts half (a changed value, not a changed statement);
 * - characters: Dice over the trigrams of the content words, which forgives typos and
 *   split or joined words that the word view misses.
 */
import { foldedWords, STOP_WORDS, termOf } from "./terms";
import { dedupeKey } from "./fact-text";

/** A kept fact that looks like the new one, with how alike they are (0–1). */
export type LookAlike = { id: string; body: string; score: number };
export type LookAlikeOptions = {
  /** The lowest score reported; LOOK_ALIKE_THRESHOLD unless given. */
  threshold?: number;
  /** The most look-alikes reported, best first; MAX_LOOK_ALIKES unless given. */
  limit?: number;
};

/**
 * The lowest score that counts as a look-alike. Chosen on the labelled pairs in
 * look-alikes.test.ts: edits, typos and changed values of one fact score 0.62 and up
 * there, while facts on the same topic that state something else stay under 0.5.
 * BENCHMARKS.md ("Look-alikes: how often they fire") says how often it fires.
 */
export const LOOK_ALIKE_THRESHOLD = 0.6;
/** A person reads "Looks like …" beside a fact; more than three is a list, not a hint. */
export const MAX_LOOK_ALIKES = 3;

/** How much the word view weighs against the character view. */
const WORD_WEIGHT = 0.7;
/** A misspelt word matched to its right spelling: nearly, not exactly, the same word. */
const TYPO_CREDIT = 0.9;
/** A value standing where the other fact has another value of its kind. */
const SLOT_CREDIT = 0.5;

// Negations are stop words for questions but carry a fact's meaning: kept, as one term.
const NEGATIONS = new Set(
  "no not nor never cannot don didn doesn isn aren wasn weren won wouldn shouldn couldn mustn hasn haven hadn shan".split(" "),
);
const NEGATION_TERM = "¬";
const DROPPED = new Set([...STOP_WORDS].filter((word) => !NEGATIONS.has(word)));

const NUMBER_WORDS = new Set("zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million half".split(" "));
const DAYS = new Set(
  "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun weekday weekend".split(" ").map(termOf),
);
const MONTHS = new Set(
  "january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec".split(" ").map(termOf),
);
const DIGITS = /^\p{N}+$/u;

/** What a word is for the comparison: a value of some kind (which may change) or a word. */
type Kind = "number" | "day" | "month" | "word";
type Term = { word: string; term: string; kind: Kind };

/** A fact read once for every comparison it takes part in. */
type Features = { key: string; terms: Term[]; termSet: Set<string>; trigrams: Set<string> };

function kindOf(word: string, term: string): Kind {
  if (DIGITS.test(word) || NUMBER_WORDS.has(word)) return "number";
  if (DAYS.has(term)) return "day";
  if (MONTHS.has(term)) return "month";
  return "word";
}

// "9:30", "2.5" and "1/3" are one value each, so 7:00 and 18:00 do not share a "00".
const NUMBER_JOINT = /(\p{N})[:.,/](?=\p{N})/gu;

function featuresOf(body: string): Features {
  const terms: Term[] = [];
  const termSet = new Set<string>();
  for (const word of foldedWords(body.replace(NUMBER_JOINT, "$1"))) {
    if (DROPPED.has(word)) continue;
    const term = NEGATIONS.has(word) ? NEGATION_TERM : termOf(word);
    if (termSet.has(term)) continue;
    termSet.add(term);
    terms.push({ word, term, kind: kindOf(word, term) });
  }
  return { key: dedupeKey(body), terms, termSet, trigrams: trigramsOf(terms) };
}

/** Trigrams of the content words, each word padded, so a word's edges count too. */
function trigramsOf(terms: Term[]): Set<string> {
  const grams = new Set<string>();
  for (const { word } of terms) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) grams.add(padded.slice(i, i + 3));
  }
  return grams;
}

/** The most edits a word of this length may be off by and still be the same word misspelt. */
function typoAllowance(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/** Levenshtein distance, giving up (returns max + 1) once it must exceed max. */
function withinEdits(a: string, b: string, max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return false;
    previous = current;
  }
  return previous[b.length] <= max;
}

/** Dice over content terms, crediting misspellings and changed values (see the header). */
function wordSimilarity(a: Features, b: Features): number {
  const total = a.terms.length + b.terms.length;
  if (total === 0) return 0;
  let matched = 0;
  let wordsMatched = 0;
  for (const t of a.terms) if (b.termSet.has(t.term)) {
    matched += 1;
    if (t.kind === "word") wordsMatched += 1;
  }
  const onlyA = a.terms.filter((t) => !b.termSet.has(t.term));
  const onlyB = b.terms.filter((t) => !a.termSet.has(t.term));
  const used = new Set<Term>();
  const unmatchedA: Term[] = [];
  for (const x of onlyA) {
    // Values never pass as typos of each other: "Tuesday" is not "Thursday" misspelt.
    const typo =
      x.kind === "word"
        ? onlyB.find((y) => y.kind === "word" && !used.has(y) && withinEdits(x.word, y.word, typoAllowance(Math.min(x.word.length, y.word.length))))
        : undefined;
    if (typo) {
      used.add(typo);
      matched += TYPO_CREDIT;
      wordsMatched += TYPO_CREDIT;
    } else unmatchedA.push(x);
  }
  // A changed value is a replacement only if the rest says the same: "the support team meets
  // on Tuesdays" and "the sales team meets on Mondays" are two teams, not one changed day.
  const wordsA = a.terms.filter((t) => t.kind === "word").length;
  const wordsB = b.terms.filter((t) => t.kind === "word").length;
  const sameRest = wordsA + wordsB === 0 ? 1 : (2 * wordsMatched) / (wordsA + wordsB);
  for (const kind of ["number", "day", "month"] as const) {
    const left = unmatchedA.filter((t) => t.kind === kind).length;
    const right = onlyB.filter((t) => t.kind === kind && !used.has(t)).length;
    matched += SLOT_CREDIT * sameRest * Math.min(left, right);
  }
  return (2 * matched) / total;
}

function trigramSimilarity(a: Features, b: Features): number {
  const total = a.trigrams.size + b.trigrams.size;
  if (total === 0) return 0;
  const [small, large] = a.trigrams.size <= b.trigrams.size ? [a.trigrams, b.trigrams] : [b.trigrams, a.trigrams];
  let shared = 0;
  for (const gram of small) if (large.has(gram)) shared += 1;
  return (2 * shared) / total;
}

function similarity(a: Features, b: Features): number {
  if (a.key === b.key) return 1;
  const score = WORD_WEIGHT * wordSimilarity(a, b) + (1 - WORD_WEIGHT) * trigramSimilarity(a, b);
  return Math.min(1, Math.max(0, score));
}

/** How alike two facts read, 0–1 (1 for two that dedupe treats as the same fact). */
export function lookAlikeScore(a: string, b: string): number {
  return similarity(featuresOf(a), featuresOf(b));
}

/**
 * The facts of one place read once, so that each new fact is compared against them
 * without reading every other fact again (an agent keeps up to 2,000).
 */
export class LookAlikeIndex {
  private readonly entries: { id: string; body: string; features: Features }[];

  constructor(others: readonly { id: string; body: string }[]) {
    this.entries = others.map(({ id, body }) => ({ id, body, features: featuresOf(String(body)) }));
  }

  /** The kept facts very like `body` but not the same fact, best first. */
  similarTo(body: string, options: LookAlikeOptions = {}): LookAlike[] {
    const threshold = Number.isFinite(options.threshold) ? (options.threshold as number) : LOOK_ALIKE_THRESHOLD;
    const limit = Number.isInteger(options.limit) ? Math.max(0, options.limit as number) : MAX_LOOK_ALIKES;
    if (limit === 0) return [];
    const query = featuresOf(String(body));
    const found: LookAlike[] = [];
    for (const { id, body: other, features } of this.entries) {
      // The same fact said again is dedupe's, not a look-alike.
      if (features.key === query.key) continue;
      const score = similarity(query, features);
      if (score >= threshold) found.push({ id, body: other, score: Math.round(score * 1000) / 1000 });
    }
    return found.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).slice(0, limit);
  }
}

/** The others very like `body` but not identical to it after dedupe, best first, at most three. */
export function similarFacts(body: string, others: readonly { id: string; body: string }[], options?: LookAlikeOptions): LookAlike[] {
  return new LookAlikeIndex(others).similarTo(body, options);
}
