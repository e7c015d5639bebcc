/**
 * Words as recall compares them: the same folding for a fact and for a question, so
 * "Releases go out on Thursdays." and "When do releases go out?" meet on `releas`,
 * `go`, `out`. Folding: Unicode compatibility forms, case, diacritics (café → cafe),
 * thousands separators (1,000 → 1000), possessives (manager's → manager); then the
 * Porter stemmer (the `stemmer` package) on words of letters. Numbers stay as they are.
 *
 * Stop words are dropped from questions only, so "what should I" never outweighs
 * "language"; a fact keeps every word (its length still counts in BM25).
 */
import { stemmer } from "stemmer";
import { KeptValues } from "./kept-values";

/** A word of the text: what the person wrote (folded) and the term it is compared by. */
export type Word = { word: string; term: string };

const COMBINING_MARKS = /\p{M}+/gu;
const THOUSANDS = /(\d)[,\u00a0\u202f'](?=\d{3}(?!\d))/g;
const POSSESSIVE = /(\p{L})['\u2019]s\b/gu;
// Letters and digits make words; everything else separates them ("e-mail" → e, mail; "v2.1" → v2, 1).
const WORD = /[\p{L}\p{N}]+/gu;
const LETTERS_ONLY = /^\p{L}+$/u;

/** Longest word kept: past this it is a pasted blob, not a word anyone asks about. */
const MAX_WORD = 40;

const ASCII = /^[\x00-\x7f]*$/;

/** The text folded to lowercase letters and digits without marks, words in order. */
export function foldedWords(text: string): string[] {
  // Plain ASCII has no marks to take off and no compatibility forms: most facts skip the Unicode pass.
  const decomposed = ASCII.test(text) ? text : text.normalize("NFKD").replace(COMBINING_MARKS, "");
  const folded = decomposed.toLowerCase().replace(THOUSANDS, "$1").replace(POSSESSIVE, "$1");
  return (folded.match(WORD) ?? []).filter((word) => word.length <= MAX_WORD);
}

/** Stems already worked out: a team's vocabulary is small, and every fact read for ranking is stemmed. */
const stems = new KeptValues<string, string>(100_000);

/** The term a folded word is compared by: its stem for words of letters, itself otherwise. */
export function termOf(word: string): string {
  if (!(LETTERS_ONLY.test(word) && word.length > 2)) return word;
  return stems.get(word, stemmer);
}

/** Every word of a fact's text with its term, stop words included. */
export function wordsOf(text: string): Word[] {
  return foldedWords(text).map((word) => ({ word, term: termOf(word) }));
}

/** Labels (the channel's and the source's names, "@ana in #support") count at half a body word. */
export const LABEL_WEIGHT = 0.5;

/**
 * A fact's terms as ranked recall counts them, as JSON for `facts.terms`: each term
 * with its weight (a body word 1, a label word LABEL_WEIGHT, summed), in the order
 * first met. Every writer of a fact's text or labels stores it in the same statement
 * (derived-columns.ts), and drizzle/0015's triggers turn it into the fact's postings
 * (`fact_terms`); the fact's length for BM25 is the sum of the weights.
 */
export function factTerms(body: string, scopeLabel: string | null, sourceLabel: string | null): string {
  // A Map, not an object: "constructor" is a word too.
  const counts = new Map<string, number>();
  const add = (text: string | null, weight: number) => {
    for (const { term } of wordsOf(text ?? "")) counts.set(term, (counts.get(term) ?? 0) + weight);
  };
  add(body, 1);
  add(scopeLabel, LABEL_WEIGHT);
  add(sourceLabel, LABEL_WEIGHT);
  return JSON.stringify(Object.fromEntries(counts));
}

/**
 * The words of a question that can say what it is about: stop words dropped, each
 * term once (the first way it was written is kept, for receipts). A question of stop
 * words only ("what is it?") has none, and recall then falls back to recency.
 */
export function questionWords(question: string): Word[] {
  const seen = new Set<string>();
  const words: Word[] = [];
  for (const word of foldedWords(question)) {
    if (STOP_WORDS.has(word)) continue;
    const term = termOf(word);
    if (seen.has(term)) continue;
    seen.add(term);
    words.push({ word, term });
  }
  return words;
}

/**
 * English function words and the filler of questions to an assistant. Content words
 * that merely happen to be common ("team", "customer") are not here: in a memory
 * they can be exactly what tells two facts apart, and BM25's IDF already weighs them.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all am an and any are aren as at be because been before being below between " +
    "both but by can cannot could couldn did didn do does doesn doing don down during each few for from further " +
    "had hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its " +
    "itself just let me more most mustn my myself no nor not now of off on once only or other ought our ours " +
    "ourselves out over own same shan she should shouldn so some such than that the their theirs them themselves " +
    "then there these they this those through to too under until up very was wasn we were weren what when where " +
    "which while who whom why will with won would wouldn you your yours yourself yourselves " +
    // The filler of a question put to an assistant: it says nothing about which fact answers.
    "anyone anything ask asked please tell know remember recall think also us ll ve re d s t " +
    "hey hi thanks thank okay ok yes"
  ).split(/\s+/),
);
