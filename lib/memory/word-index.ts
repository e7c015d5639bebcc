/**
 * Relevance by words: BM25 over the facts recall may use in a place, and nothing else.
 *
 * Why not SQLite's FTS5 `bm25()`: its statistics (how rare a word is) come from every
 * fact of every workspace in the file, so the score an agent is shown would move with
 * other teams' facts — a side channel a privacy product cannot have — and a common word
 * would walk a posting list as long as the whole corpus. Here each index holds one
 * recall branch (one agent, one scope, one ref; at most MAX_FACTS facts), built from
 * rows the rules already allowed, and the statistics are those of this place alone.
 *
 * Fields: the body counts fully, the labels (the channel's and the source's names,
 * "@ana in #support") at half weight, so "what did Ana say" finds Ana's facts without
 * a name in a label outranking one in the text. A question word no fact here contains
 * may be a typo: it matches the closest words of this place's vocabulary (one edit,
 * two for long words) at a discount.
 */
import type { StoredFact } from "./fact-columns";
import { wordnet, type Lexicon } from "./lexicon";
import { termOf, wordsOf, type Word } from "./terms";

/** BM25's usual constants: how fast repeats saturate, and how much length matters. */
const K1 = 1.2;
const B = 0.75;
const LABEL_WEIGHT = 0.5;
/** Another word for the asked one counts for less than the word itself. */
const SYNONYM_WEIGHT = 0.5;
/** A near-miss counts for less than the word itself. */
const TYPO_WEIGHT = 0.7;
/** Words shorter than this are not guessed at: one edit turns "cat" into too many words. */
const TYPO_MIN_LENGTH = 4;

type Posting = { doc: number; tf: number };
/** Questions' unknown words looked up per branch and kept; past this many the list starts again. */
const MAX_NEAR_KEPT = 2_000;

/** The words of one branch's facts, ready to score. Immutable once built. */
export class WordIndex {
  private readonly postings = new Map<string, Posting[]>();
  private readonly nearCache = new Map<string, Map<string, number>>();
  private readonly lengths: Float64Array;
  readonly totalLength: number;

  constructor(readonly facts: readonly StoredFact[]) {
    this.lengths = new Float64Array(facts.length);
    let total = 0;
    facts.forEach((fact, doc) => {
      const counts = new Map<string, number>();
      const add = (words: Word[], weight: number) => {
        for (const { term } of words) counts.set(term, (counts.get(term) ?? 0) + weight);
        return words.length * weight;
      };
      const length =
        add(wordsOf(fact.body), 1) +
        add(wordsOf(fact.scopeLabel ?? ""), LABEL_WEIGHT) +
        add(wordsOf(fact.sourceLabel ?? ""), LABEL_WEIGHT);
      for (const [term, tf] of counts) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ doc, tf });
      }
      this.lengths[doc] = length;
      total += length;
    });
    this.totalLength = total;
  }

  has(term: string): boolean {
    return this.postings.has(term);
  }

  /** This branch's words within `most` edits of `term`, with their distance; worked out once per word. */
  near(term: string, most: number): ReadonlyMap<string, number> {
    const key = `${most}:${term}`;
    let found = this.nearCache.get(key);
    if (!found) {
      found = new Map();
      for (const candidate of this.postings.keys()) {
        if (Math.abs(candidate.length - term.length) > most || /\d/.test(candidate)) continue;
        const distance = editDistance(term, candidate, most);
        if (distance <= most) found.set(candidate, distance);
      }
      if (this.nearCache.size >= MAX_NEAR_KEPT) this.nearCache.clear();
      this.nearCache.set(key, found);
    }
    return found;
  }

  postingsOf(term: string): readonly Posting[] {
    return this.postings.get(term) ?? [];
  }

  lengthOf(doc: number): number {
    return this.lengths[doc];
  }
}

/** How a fact matched: its BM25 score and the question's words it contains, as the asker wrote them. */
export type WordHit = { score: number; matched: string[] };

/** The lexicon ranking asks for other words (lexicon.ts; a test may give its own). */
export type Words = Pick<Lexicon, "synonymsOf" | "knows">;

/**
 * BM25 of each fact of `indexes` that contains a word of the question — or a word
 * WordNet gives for it, or, for a word neither WordNet nor this place knows, one a
 * typo away — with the statistics of these indexes together (the place's facts,
 * nothing beyond). Each question word counts once per fact, by its best match, so a
 * fact saying both "reply" and "answer" is not paid twice. Facts `allowed` refuses
 * are skipped, a second check behind the SQL that loaded them.
 */
export function scoreByWords(
  indexes: readonly WordIndex[],
  question: readonly Word[],
  allowed: (fact: StoredFact) => boolean,
  words: Words = wordnet,
): Map<StoredFact, WordHit> {
  const hits = new Map<StoredFact, WordHit>();
  const count = indexes.reduce((sum, index) => sum + index.facts.length, 0);
  if (!count || !question.length) return hits;
  const averageLength = indexes.reduce((sum, index) => sum + index.totalLength, 0) / count || 1;
  const asked = new Set(question.map(({ term }) => term));

  for (const { word, term } of question) {
    const best = new Map<StoredFact, number>();
    for (const { term: found, weight } of termsFor(indexes, word, term, asked, words)) {
      const df = indexes.reduce((sum, index) => sum + index.postingsOf(found).length, 0);
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      for (const index of indexes) {
        for (const { doc, tf } of index.postingsOf(found)) {
          const fact = index.facts[doc];
          const norm = K1 * (1 - B + (B * index.lengthOf(doc)) / averageLength);
          const score = weight * idf * ((tf * (K1 + 1)) / (tf + norm));
          if (score > (best.get(fact) ?? 0)) best.set(fact, score);
        }
      }
    }
    for (const [fact, score] of best) {
      if (!allowed(fact)) continue;
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
  indexes: readonly WordIndex[],
  word: string,
  term: string,
  asked: ReadonlySet<string>,
  words: Words,
): { term: string; weight: number }[] {
  const terms = [{ term, weight: 1 }];
  for (const synonym of words.synonymsOf(word)) {
    const other = termOf(synonym);
    if (!asked.has(other) && indexes.some((index) => index.has(other))) terms.push({ term: other, weight: SYNONYM_WEIGHT });
  }
  if (indexes.some((index) => index.has(term)) || term.length < TYPO_MIN_LENGTH || /\d/.test(term) || words.knows(word)) {
    return terms;
  }
  const most = term.length >= 8 ? 2 : 1;
  const near = new Map<string, number>();
  for (const index of indexes) for (const [found, distance] of index.near(term, most)) near.set(found, distance);
  if (!near.size) return terms;
  const closest = Math.min(...near.values());
  for (const [found, distance] of near) if (distance === closest) terms.push({ term: found, weight: TYPO_WEIGHT });
  return terms;
}

/**
 * Edits (insert, delete, substitute, swap two neighbours) from a to b, or more than
 * `most` as soon as that is certain — the rows are cut short, not finished.
 */
export function editDistance(a: string, b: string, most: number): number {
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > most) return most + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}
