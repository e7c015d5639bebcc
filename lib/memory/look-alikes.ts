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
import { KeptValues } from "./kept-values";

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
 * look-alikes.test.ts: in the first batch, edits, typos and changed values of one fact
 * score 0.66 and up, and facts on the same topic that state something else 0.57 at most.
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
/** `grams` and `mask` (its characters as bits) rule out typos cheaply before edits are counted. */
type Term = { word: string; term: string; kind: Kind; grams: number[]; mask: number };

/** A fact read once for every comparison it takes part in; `trigrams`: its words' (gramsOf), sorted, each once. */
type Features = { key: string; terms: Term[]; termSet: Set<string>; trigrams: Float64Array; words: number };

const VALUE_SLOT = { number: 0, day: 1, month: 2 } as const;
// Which of the other fact's words are already someone's typo, reused across comparisons.
let taken = new Uint8Array(64);

function kindOf(word: string, term: string): Kind {
  if (DIGITS.test(word) || NUMBER_WORDS.has(word)) return "number";
  if (DAYS.has(term)) return "day";
  if (MONTHS.has(term)) return "month";
  return "word";
}

// "9:30", "2.5" and "1/3" are one value each, so 7:00 and 18:00 do not share a "00".
const NUMBER_JOINT = /(\p{N})[:.,/](?=\p{N})/gu;

/**
 * Each folded word's Term, kept: a remember builds the features of every fact on its
 * shortlist (up to a hundred, look-alike-pairs.ts), and a place's facts share most of
 * their words, so a word's term, kind, trigrams and bits are worked out once rather than
 * once per fact per write (a bench note's features: ~5 → ~3 µs). Terms are never
 * changed once made. Cleared when full, like terms.ts's stems; at ~200 bytes a word,
 * the bound keeps it under ~4 MB.
 */
const termsByWord = new KeptValues<string, Term>(20_000);

function termFor(word: string): Term {
  return termsByWord.get(word, makeTerm);
}

function makeTerm(word: string): Term {
  const term = NEGATIONS.has(word) ? NEGATION_TERM : termOf(word);
  return { word, term, kind: kindOf(word, term), grams: gramsOf(word), mask: maskOf(word) };
}

/** `key`: the text's dedupeKey when the caller has it already (a fact's row keeps it as body_key). */
function featuresOf(body: string, key: string = dedupeKey(body)): Features {
  const terms: Term[] = [];
  const termSet = new Set<string>();
  let gramCount = 0;
  let words = 0;
  for (const word of foldedWords(body.replace(NUMBER_JOINT, "$1"))) {
    if (DROPPED.has(word)) continue;
    const t = termFor(word);
    if (termSet.has(t.term)) continue;
    termSet.add(t.term);
    terms.push(t);
    gramCount += t.grams.length;
    if (t.kind === "word") words += 1;
  }
  // Built in one typed array and sorted natively: this runs for every fact of a place.
  const all = new Float64Array(gramCount);
  let at = 0;
  for (const t of terms) for (const gram of t.grams) all[at++] = gram;
  all.sort();
  let unique = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) all[unique++] = all[i];
  return { key, terms, termSet, trigrams: all.subarray(0, unique), words };
}

/**
 * The features of the texts compared lately, by text: the facts of a place are on the
 * shortlist of each new fact kept there, so each text's features are worked out once,
 * not once per write. Features are never changed once made, and a text is its own key:
 * a corrected fact is a new text. The oldest go first once the estimated bytes pass the
 * budget (~1 KB for a short fact, ~10 KB for one of 500 characters).
 */
const featuresByText = new Map<string, { features: Features; bytes: number }>();
const MAX_KEPT_FEATURE_BYTES = 24 * 2 ** 20;
let keptFeatureBytes = 0;

/** A kept text's rough cost: the text and its key, the trigrams' buffer, a slot per term in the list and the set, the objects. */
function estimatedBytes(body: string, features: Features): number {
  return 2 * (body.length + features.key.length) + features.trigrams.buffer.byteLength + 40 * features.terms.length + 400;
}

function keptFeaturesOf(body: string, key: string): Features {
  let kept = featuresByText.get(body)?.features;
  if (kept === undefined) {
    kept = featuresOf(body, key);
    const bytes = estimatedBytes(body, kept);
    for (const [oldest, entry] of featuresByText) {
      if (keptFeatureBytes + bytes <= MAX_KEPT_FEATURE_BYTES) break;
      featuresByText.delete(oldest);
      keptFeatureBytes -= entry.bytes;
    }
    featuresByText.set(body, { features: kept, bytes });
    keptFeatureBytes += bytes;
  }
  // A row's key is the text's own dedupeKey; one that says otherwise is taken at its word.
  return kept.key === key ? kept : { ...kept, key };
}

/** The characters a word has, as bits (several characters may share one: it only rules out). */
function maskOf(word: string): number {
  let mask = 0;
  for (let i = 0; i < word.length; i++) mask |= 1 << word.charCodeAt(i) % 32;
  return mask;
}

function bitCount(n: number): number {
  let count = 0;
  for (let v = n >>> 0; v !== 0; v &= v - 1) count += 1;
  return count;
}

/**
 * A word's distinct trigrams, padded so its edges count too. Each is three UTF-16 units
 * packed into one exact number (below 2^48), so comparing them allocates no strings.
 */
function gramsOf(word: string): number[] {
  const padded = ` ${word} `;
  const grams: number[] = [];
  for (let i = 0; i + 3 <= padded.length; i++) {
    const gram = padded.charCodeAt(i) * 2 ** 32 + padded.charCodeAt(i + 1) * 2 ** 16 + padded.charCodeAt(i + 2);
    if (!grams.includes(gram)) grams.push(gram);
  }
  return grams;
}

/** The most edits a word of this length may be off by and still be the same word misspelt. */
function typoAllowance(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

// Two rows of the edit-distance table, reused: this runs for many word pairs per comparison.
let previousRow = new Int32Array(64);
let currentRow = new Int32Array(64);

/** Whether one word is a misspelling of the other: within the edits their length allows. */
function isTypo(x: Term, y: Term): boolean {
  const max = typoAllowance(Math.min(x.word.length, y.word.length));
  if (max === 0 || Math.abs(x.word.length - y.word.length) > max) return false;
  // An edit adds or removes at most one character of each kind: at most two bits change.
  if (bitCount(x.mask ^ y.mask) > 2 * max) return false;
  // An edit spoils at most three trigrams, so words `max` edits apart share all but 3·max of each one's.
  let shared = 0;
  for (const gram of x.grams) if (y.grams.includes(gram)) shared += 1;
  if (shared < Math.max(x.grams.length, y.grams.length) - 3 * max) return false;
  return withinEdits(x.word, y.word, max);
}

/** Levenshtein distance at most max, giving up once a row shows it must exceed it. */
function withinEdits(a: string, b: string, max: number): boolean {
  if (previousRow.length <= b.length) {
    previousRow = new Int32Array(b.length + 1);
    currentRow = new Int32Array(b.length + 1);
  }
  for (let j = 0; j <= b.length; j++) previousRow[j] = j;
  for (let i = 1; i <= a.length; i++) {
    currentRow[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previousRow[j] + 1, currentRow[j - 1] + 1, previousRow[j - 1] + cost);
      currentRow[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return false;
    [previousRow, currentRow] = [currentRow, previousRow];
  }
  return previousRow[b.length] <= max;
}

/** Dice over content terms, crediting misspellings and changed values (see the header). */
function wordSimilarity(a: Features, b: Features): number {
  const total = a.terms.length + b.terms.length;
  if (total === 0) return 0;
  let matched = 0;
  let wordsMatched = 0;
  // Values of each kind that the other fact does not have: [number, day, month].
  const valuesA = [0, 0, 0];
  const valuesB = [0, 0, 0];
  for (const y of b.terms) if (y.kind !== "word" && !a.termSet.has(y.term)) valuesB[VALUE_SLOT[y.kind]] += 1;
  if (taken.length < b.terms.length) taken = new Uint8Array(b.terms.length * 2);
  taken.fill(0, 0, b.terms.length);
  for (const x of a.terms) {
    if (b.termSet.has(x.term)) {
      matched += 1;
      if (x.kind === "word") wordsMatched += 1;
    } else if (x.kind !== "word") valuesA[VALUE_SLOT[x.kind]] += 1;
    else {
      // Values never pass as typos of each other: "Tuesday" is not "Thursday" misspelt.
      for (let j = 0; j < b.terms.length; j++) {
        const y = b.terms[j];
        if (y.kind !== "word" || taken[j] || a.termSet.has(y.term) || !isTypo(x, y)) continue;
        taken[j] = 1;
        matched += TYPO_CREDIT;
        wordsMatched += TYPO_CREDIT;
        break;
      }
    }
  }
  // A changed value is a replacement only if the rest says the same: "the support team meets
  // on Tuesdays" and "the sales team meets on Mondays" are two teams, not one changed day.
  const words = a.words + b.words;
  const sameRest = words === 0 ? 1 : (2 * wordsMatched) / words;
  for (let k = 0; k < 3; k++) matched += SLOT_CREDIT * sameRest * Math.min(valuesA[k], valuesB[k]);
  return (2 * matched) / total;
}

function trigramSimilarity(a: Features, b: Features): number {
  const x = a.trigrams;
  const y = b.trigrams;
  const total = x.length + y.length;
  if (total === 0) return 0;
  let shared = 0;
  // Both sorted: one merge pass counts what they share.
  for (let i = 0, j = 0; i < x.length && j < y.length; ) {
    if (x[i] === y[j]) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (x[i] < y[j]) i += 1;
    else j += 1;
  }
  return (2 * shared) / total;
}

/**
 * The blended score; below `floor` it may stop early and return any lower number: a pair
 * whose words alone keep it under the floor even with every trigram shared is not counted.
 */
function similarity(a: Features, b: Features, floor = 0): number {
  if (a.key === b.key) return 1;
  const words = WORD_WEIGHT * wordSimilarity(a, b);
  if (words + (1 - WORD_WEIGHT) < floor) return words;
  return Math.min(1, Math.max(0, words + (1 - WORD_WEIGHT) * trigramSimilarity(a, b)));
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

  /** `key`: each fact's dedupeKey if known (its row's body_key), so it is not worked out again. */
  constructor(others: readonly { id: string; body: string; key?: string }[]) {
    this.entries = others.map(({ id, body, key }) => ({ id, body, features: keptFeaturesOf(String(body), key ?? dedupeKey(String(body))) }));
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
      const score = similarity(query, features, threshold);
      if (score >= threshold) found.push({ id, body: other, score: Math.round(score * 1000) / 1000 });
    }
    return found.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)).slice(0, limit);
  }
}

/** The others very like `body` but not identical to it after dedupe, best first, at most three. */
export function similarFacts(body: string, others: readonly { id: string; body: string }[], options?: LookAlikeOptions): LookAlike[] {
  return new LookAlikeIndex(others).similarTo(body, options);
}
