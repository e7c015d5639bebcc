/**
 * Relevance by words: BM25 over the facts recall may use in a place, and nothing else.
 *
 * Why not SQLite's FTS5 `bm25()`: its statistics (how rare a word is) come from every
 * fact of every workspace in the file, so the score an agent is shown would move with
 * other teams' facts — a side channel a privacy product cannot have — and a common word
 * would walk a posting list as long as the whole corpus. Here the postings are those of
 * the place's own recall branches (fact_terms, drizzle/0015: one agent, one scope, one
 * ref each, at most MAX_FACTS facts), read by recall-candidates.ts for the question's
 * terms (or a branch whole, once its questions have cost that much), and the
 * statistics are those of this place alone.
 *
 * Fields: a fact's terms count its body fully and its labels (the channel's and the
 * source's names, "@ana in #support") at half weight (factTerms in terms.ts), so "what
 * did Ana say" finds Ana's facts without a name in a label outranking one in the text.
 * A question word no fact here contains may be a typo: it matches the closest words of
 * this place's vocabulary (one edit, two for long words) at a discount.
 */
import { wordnet, type Lexicon } from "./lexicon";
import { KeptValues } from "./kept-values";
import { termOf, type Word } from "./terms";

/** BM25's usual constants: how fast repeats saturate, and how much length matters. */
const K1 = 1.2;
const B = 0.75;
/** Another word for the asked one counts for less than the word itself. */
const SYNONYM_WEIGHT = 0.5;
/** A near-miss counts for less than the word itself. */
const TYPO_WEIGHT = 0.7;
/** Words shorter than this are not guessed at: one edit turns "cat" into too many words. */
const TYPO_MIN_LENGTH = 4;

/** One fact's entry for a term: the fact (its seq), the term's weight in it, and the fact's length. */
export type Posting = { fact: number; tf: number; length: number };

/**
 * A term's postings, three numbers a fact (as Posting, in that order) in one array.
 * Kept lists are most of what the agent thread's caches hold: as one object per
 * posting they were what its young generation copied at each collection and its
 * full collections walked (BENCHMARKS.md, the twenty-fifth session); an array of
 * numbers is one object however many facts it holds, and half the memory.
 */
export type Postings = Float64Array;
/** Numbers per posting in Postings. */
export const POSTING_WIDTH = 3;

/** Postings gathered one by one, then made a Postings array. */
export class PostingsBuilder {
  private readonly numbers: number[] = [];
  add(fact: number, tf: number, length: number): void {
    this.numbers.push(fact, tf, length);
  }
  build(): Postings {
    return Float64Array.from(this.numbers);
  }
}

/** How many facts a Postings array holds. */
export const postingCount = (postings: Postings) => postings.length / POSTING_WIDTH;

/** Two branches' postings of one term as one array. */
export function joinPostings(a: Postings, b: Postings): Postings {
  const joined = new Float64Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** What scoring reads of a place: its recallable facts' count and total length, and the postings asked for. */
export type PlacePostings = {
  count: number;
  totalLength: number;
  /** The place's postings of a term; empty when no fact here has it. */
  postingsOf(term: string): Postings;
  /** The place's terms within `most` edits of `term`, with their distance (its vocabulary; asked only for unknown words). */
  near(term: string, most: number): ReadonlyMap<string, number>;
};

/** No postings: a term no fact here has. */
export const NO_POSTINGS: Postings = new Float64Array(0);

/** Questions' unknown words looked up per vocabulary and kept; past this many the list starts again. */
const MAX_NEAR_KEPT = 2_000;

/**
 * One branch's distinct terms: which of a question's terms to read, and the typo rule's
 * neighbours — and, when the branch was read whole, every posting of each. Immutable once read.
 */
export class Vocabulary {
  private readonly nearCache = new KeptValues<string, ReadonlyMap<string, number>>(MAX_NEAR_KEPT);
  private readonly known: ReadonlySet<string>;
  /** The words near() compares, by length; made by its first call (most vocabularies never meet a typo). */
  private typoCandidates?: string[][];
  /** How many postings it holds (0 unless whole). */
  readonly postings: number = 0;

  constructor(
    readonly terms: readonly string[],
    private readonly byTerm?: ReadonlyMap<string, Postings>,
  ) {
    this.known = new Set(terms);
    for (const list of byTerm?.values() ?? []) this.postings += postingCount(list);
  }

  /** Whether it holds every posting of the branch, so no term needs a seek. */
  get whole(): boolean {
    return this.byTerm !== undefined;
  }

  /** The branch's postings of a term if it was read whole ([] for a term it lacks); undefined otherwise. */
  postingsOf(term: string): Postings | undefined {
    return this.byTerm ? (this.byTerm.get(term) ?? NO_POSTINGS) : undefined;
  }

  /** Whether some fact of this branch has the term. */
  has(term: string): boolean {
    return this.known.has(term);
  }

  /** This branch's words within `most` edits of `term`, with their distance; worked out once per word. */
  near(term: string, most: number): ReadonlyMap<string, number> {
    return this.nearCache.get(`${most}:${term}`, () => {
      const found = new Map<string, number>();
      // Only words a few letters longer or shorter can be that close: each length's words are compared, no others.
      const byLength = (this.typoCandidates ??= byLengthWithoutDigits(this.terms));
      for (let length = Math.max(0, term.length - most); length <= term.length + most; length++) {
        for (const candidate of byLength[length] ?? NO_TERMS) {
          const distance = editDistance(term, candidate, most);
          if (distance <= most) found.set(candidate, distance);
        }
      }
      return found;
    });
  }
}

const NO_TERMS: readonly string[] = [];

/** A vocabulary's words a typo may be taken for, by length: a word with a digit is a number or a code, never guessed at. */
function byLengthWithoutDigits(terms: readonly string[]): string[][] {
  const byLength: string[][] = [];
  for (const term of terms) {
    if (/\d/.test(term)) continue;
    (byLength[term.length] ??= []).push(term);
  }
  return byLength;
}

/** How a fact matched: its BM25 score and the question's words it contains, as the asker wrote them. */
export type WordHit = { score: number; matched: string[] };

/** The lexicon ranking asks for other words (lexicon.ts; a test may give its own). */
export type Words = Pick<Lexicon, "synonymsOf" | "knows">;

/**
 * The terms to read postings of before scoring: each question word's own term and
 * WordNet's other words for it. Typos come after, and only for a word whose own
 * term found nothing (mayBeTypo).
 */
export function termsToRead(question: readonly Word[], words: Words = wordnet): string[] {
  const asked = new Set(question.map(({ term }) => term));
  const terms = new Set(asked);
  for (const { word } of question) {
    for (const synonym of words.synonymsOf(word)) terms.add(termOf(synonym));
  }
  return [...terms];
}

/** The question's words that may be typos, if the place has no fact with them: long enough, no digits, unknown to WordNet. */
export function mayBeTypos(question: readonly Word[], words: Words = wordnet): Word[] {
  return question.filter(({ word, term }) => term.length >= TYPO_MIN_LENGTH && !/\d/.test(term) && !words.knows(word));
}

/** How far a typo may be from the word: one edit, two for long words. */
export const typoReach = (term: string) => (term.length >= 8 ? 2 : 1);

/**
 * BM25 of each fact of the place that contains a word of the question — or a word
 * WordNet gives for it, or, for a word neither WordNet nor this place knows, one a
 * typo away — with the statistics of the place (its facts, nothing beyond). Each
 * question word counts once per fact, by its best match, so a fact saying both
 * "reply" and "answer" is not paid twice. Keyed by the fact's seq; the facts
 * themselves are read afterwards, through the rules (ranked-recall.ts).
 */
export function scoreByWords(place: PlacePostings, question: readonly Word[], words: Words = wordnet): Map<number, WordHit> {
  const hits = new Map<number, WordHit>();
  const { count } = place;
  if (!count || !question.length) return hits;
  const averageLength = place.totalLength / count || 1;
  const asked = new Set(question.map(({ term }) => term));

  for (const { word, term } of question) {
    const best = new Map<number, number>();
    for (const { term: found, weight } of termsFor(place, word, term, asked, words)) {
      const postings = place.postingsOf(found);
      const df = postingCount(postings);
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      for (let i = 0; i < postings.length; i += POSTING_WIDTH) {
        const fact = postings[i];
        const tf = postings[i + 1];
        const length = postings[i + 2];
        const norm = K1 * (1 - B + (B * length) / averageLength);
        const score = weight * idf * ((tf * (K1 + 1)) / (tf + norm));
        if (score > (best.get(fact) ?? 0)) best.set(fact, score);
      }
    }
    for (const [fact, score] of best) {
      const hit = hits.get(fact);
      if (!hit) hits.set(fact, { score, matched: [word] });
      else {
        hit.score += score;
        hit.matched.push(word);
      }
    }
  }
  return hits;
}

/**
 * The terms a question word is looked for by: itself; WordNet's other words for it
 * (at a discount, and not those the question asks anyway); and when this place has
 * no fact with the word and WordNet does not know it either, the place's words one
 * typo away (two for long words).
 */
function termsFor(
  place: PlacePostings,
  word: string,
  term: string,
  asked: ReadonlySet<string>,
  words: Words,
): { term: string; weight: number }[] {
  const has = (other: string) => place.postingsOf(other).length > 0;
  const terms = [{ term, weight: 1 }];
  for (const synonym of words.synonymsOf(word)) {
    const other = termOf(synonym);
    if (!asked.has(other) && has(other) && !terms.some((known) => known.term === other)) {
      terms.push({ term: other, weight: SYNONYM_WEIGHT });
    }
  }
  if (has(term) || term.length < TYPO_MIN_LENGTH || /\d/.test(term) || words.knows(word)) return terms;
  const near = place.near(term, typoReach(term));
  if (!near.size) return terms;
  const closest = Math.min(...near.values());
  for (const [found, distance] of near) if (distance === closest) terms.push({ term: found, weight: TYPO_WEIGHT });
  return terms;
}

/** editDistance's three rows, kept between calls and grown to the longest word seen (one thread, no reentry). */
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/**
 * Edits (insert, delete, substitute, swap two neighbours) from a to b, or more than
 * `most` as soon as that is certain — the rows are cut short, not finished. Called for
 * every word of a vocabulary a typo's length allows, so it allocates nothing.
 */
export function editDistance(a: string, b: string, most: number): number {
  if (rows[0].length <= b.length) rows = rows.map(() => new Int32Array(2 * (b.length + 1)));
  let [before, previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
      current[j] = value;
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > most) return most + 1;
    const free = before;
    before = previous;
    previous = current;
    current = free;
  }
  return previous[b.length];
}
