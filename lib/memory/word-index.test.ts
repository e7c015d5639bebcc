/**
 * The typo rule's two parts, against their definitions: editDistance is the
 * restricted Damerau–Levenshtein distance (insert, delete, substitute, swap two
 * neighbours), cut off past `most`; Vocabulary.near is every word of the branch
 * without a digit within `most` edits — compared by length only for speed, so
 * these check that no word is lost by it.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PostingsBuilder, Vocabulary, editDistance, joinPostings, postingCount, scoreByWords, type PlacePostings } from "./word-index";

/** The distance written as its textbook table, nothing cut short. */
function reference(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

// Few letters, so that random words often come within an edit or two of each other.
const word = (max: number) => fc.string({ unit: fc.constantFrom("a", "b", "c", "é", "1"), maxLength: max });

describe("editDistance", () => {
  it("is the restricted Damerau–Levenshtein distance within most, and more than most beyond — whatever length the call before had", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(word(40), word(40), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 8 }), (calls) => {
        for (const [a, b, most] of calls) expect(Math.min(editDistance(a, b, most), most + 1)).toBe(Math.min(reference(a, b), most + 1));
      }),
      { numRuns: 400 },
    );
  });

  it("counts a missing letter, an extra one and a swap of neighbours as one edit each", () => {
    expect(editDistance("recieve", "receive", 1)).toBe(1);
    expect(editDistance("shiping", "shipping", 1)).toBe(1);
    expect(editDistance("refund", "refunds", 2)).toBe(1);
    expect(editDistance("refund", "approval", 2)).toBe(3);
  });
});

describe("Vocabulary.near", () => {
  it("finds every word without a digit within most edits, with its distance, and nothing else", () => {
    fc.assert(
      fc.property(fc.uniqueArray(word(9), { maxLength: 60 }), word(9), fc.integer({ min: 1, max: 2 }), (terms, asked, most) => {
        const expected = new Map(
          terms.filter((term) => !/\d/.test(term) && reference(asked, term) <= most).map((term) => [term, reference(asked, term)]),
        );
        const vocabulary = new Vocabulary(terms);
        expect(new Map([...vocabulary.near(asked, most)].sort())).toEqual(new Map([...expected].sort()));
        // Asked again, the same answer (it is kept per word and reach).
        expect(new Map([...vocabulary.near(asked, most)].sort())).toEqual(new Map([...expected].sort()));
      }),
      { numRuns: 300 },
    );
  });

  it("takes a misspelt word for the branch's own words, never for a number or a code", () => {
    const vocabulary = new Vocabulary(["shipping", "refund", "refunds", "approval", "v2shipping", "2026"]);
    expect([...vocabulary.near("shiping", 1)]).toEqual([["shipping", 1]]);
    expect(new Map(vocabulary.near("refnd", 1))).toEqual(new Map([["refund", 1]]));
    expect(vocabulary.near("2025", 1).size).toBe(0);
    expect(vocabulary.near("v2shiping", 2).size).toBe(0);
  });
});

describe("postings as one array of numbers", () => {
  const list = (...postings: [number, number, number][]) => {
    const builder = new PostingsBuilder();
    for (const [fact, tf, length] of postings) builder.add(fact, tf, length);
    return builder.build();
  };

  it("keeps each fact's seq, weight and length, in order, and joins two branches' lists", () => {
    const a = list([7, 1, 12], [9, 0.5, 30]);
    const b = list([2 ** 40, 2, 8]);
    expect(postingCount(a)).toBe(2);
    expect([...joinPostings(a, b)]).toEqual([7, 1, 12, 9, 0.5, 30, 2 ** 40, 2, 8]);
    expect(postingCount(new PostingsBuilder().build())).toBe(0);
  });

  it("scores by them as BM25 would: a rarer word and a shorter fact score higher", () => {
    const byTerm = new Map([
      ["refund", list([1, 1, 6], [2, 1, 20])],
      ["approv", list([1, 1, 6])],
    ]);
    const place: PlacePostings = {
      count: 10,
      totalLength: 100,
      postingsOf: (term) => byTerm.get(term) ?? new Float64Array(0),
      near: () => new Map(),
    };
    const words = { synonymsOf: () => [], knows: () => true };
    const hits = scoreByWords(place, [{ word: "refund", term: "refund" }, { word: "approval", term: "approv" }], words);
    expect([...hits.keys()].sort()).toEqual([1, 2]);
    expect(hits.get(1)!.matched).toEqual(["refund", "approval"]);
    expect(hits.get(2)!.matched).toEqual(["refund"]);
    expect(hits.get(1)!.score).toBeGreaterThan(hits.get(2)!.score);
  });
});
