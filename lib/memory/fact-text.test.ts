/**
 * A fact's text, tested adversarially: cleaning gives one well-formed paragraph of
 * at most 500 characters for any input, and the dedupe key matches exactly the
 * texts a person would call the same fact.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanFact, collapseWhitespace, dedupeKey } from "./fact-text";
import { MAX_FACT } from "./rules";
import { MANY, TEXT, messyChar } from "./test-facts";
import { stripInvisible } from "./unicode";

/** Any text: raw code points (lone surrogates included), graphemes, mess, and long runs around the 500 cut. */
const anyText = fc.oneof(
  fc.string({ unit: "binary", maxLength: 2_000 }),
  fc.string({ unit: "grapheme", maxLength: 700 }),
  fc.string({ unit: messyChar, maxLength: 2_000 }),
  fc.string({ unit: fc.constantFrom("a", "😀", " ", "\n", "\ud83d"), minLength: 480, maxLength: 560 }),
);

describe("collapseWhitespace", () => {
  it("gives every run of whitespace as one space, trimmed, for any text: text already one line comes back as it is", () => {
    const spaced = fc.string({ unit: fc.constantFrom("a", " ", "  ", "\t", "\n", "\u0085", "\u00a0", "\u2028", "\u3000", "\ufeff", "é"), maxLength: 40 });
    fc.assert(
      fc.property(fc.oneof(anyText, spaced), (text) => {
        expect(collapseWhitespace(text)).toBe(text.replace(/[\s\u0085]+/g, " ").trim());
      }),
      TEXT,
    );
  });
});

describe("cleanFact", () => {
  /** Cleaning restated independently: controls and invisible characters dropped, whitespace runs to one space, trimmed, NFC. */
  const collapsed = (text: string) =>
    stripInvisible(text.replace(/\p{Cc}/gu, (c) => (/[\s\u0085]/.test(c) ? " " : "")))
      .replace(/[\s\u0085]+/g, " ")
      .trim()
      .normalize("NFC");

  it("gives null or one trimmed, well-formed paragraph of at most 500 characters, and is idempotent", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const out = cleanFact(text);
        const expected = collapsed(text);
        if (expected.replace(/\u2800/g, "").trim() === "") {
          expect(out).toBeNull();
          return;
        }
        expect(out).not.toBeNull();
        const clean = out as string;
        expect(clean.length).toBeLessThanOrEqual(MAX_FACT);
        expect(clean).not.toMatch(/[\n\r\t\v\f\u2028\u2029\u0085]/);
        expect(clean).not.toMatch(/[^\S ]/); // the only whitespace left is a plain space
        expect(clean).not.toMatch(/\p{Cc}/u);
        expect(clean).not.toContain("  ");
        expect(clean).not.toMatch(/^[\s\u0085]|[\s\u0085]$/);
        expect(clean.isWellFormed()).toBe(true);
        expect(cleanFact(clean)).toBe(clean);

        if (expected.length <= MAX_FACT) expect(clean).toBe(expected);
        else {
          expect(clean.endsWith("…")).toBe(true);
          expect(expected.startsWith(clean.slice(0, -1))).toBe(true);
          expect(clean.length).toBeGreaterThanOrEqual(MAX_FACT - 3); // keeps all that fits
          expect(clean.endsWith(" …")).toBe(false);
        }
      }),
      TEXT,
    );
  });

  it("rejects non-strings and whitespace-only text", () => {
    fc.assert(
      fc.property(
        fc.anything().filter((x) => typeof x !== "string"),
        (x) => {
          expect(cleanFact(x)).toBeNull();
        },
      ),
      TEXT,
    );
    const blankChar = fc.constantFrom(" ", "\n", "\r", "\t", "\u2028", "\u2029", "\u0085", "\u00a0", "\u0000", "\u3000");
    fc.assert(
      fc.property(fc.string({ unit: blankChar, maxLength: 2_000 }), (blank) => {
        expect(cleanFact(blank)).toBeNull();
      }),
      TEXT,
    );
  });

  it("examples", () => {
    expect(cleanFact("  Releases\n\n go out\ton\r\nThursdays.  ")).toBe("Releases go out on Thursdays.");
    expect(cleanFact(new String("boxed"))).toBeNull();
    expect(cleanFact(`${"a".repeat(498)}😀tail`)).toBe(`${"a".repeat(498)}…`); // the emoji is not split in half
    expect(cleanFact("x".repeat(501))).toBe(`${"x".repeat(499)}…`);
    expect(cleanFact("x".repeat(500))).toBe("x".repeat(500));
    expect(cleanFact("a\ud800b")).toBe("ab"); // a lone surrogate is dropped, not kept as "\ufffd"
  });
});

describe("dedupeKey", () => {
  // Letters whose upper and lower case map one to one (ß, ς and ı are below, as a known bug).
  const letter = fc.constantFrom(..."abcxyzABCXYZéÉäÄñÑøØçÇžŽδΔжЖ0123456789".split(""));
  const word = fc.string({ unit: letter, minLength: 1, maxLength: 8 });
  const space = fc.constantFrom(" ", "\t", "\n", "\r\n", "\u00a0", "\u2028", "\u0085", "\u3000");
  const gap = fc.string({ unit: space, minLength: 1, maxLength: 3 });
  const punctuation = fc.constantFrom(".", "!", "?", "…", ",", ";", ":", "...", " ", "\n", "。", "—");
  const trailing = fc.string({ unit: punctuation, maxLength: 4 });
  const leading = fc.string({ unit: space, maxLength: 2 });
  const recase = (text: string, upper: boolean[]) =>
    [...text].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c.toLowerCase())).join("");
  const joinWith = (words: string[], gaps: string[]) =>
    words.map((w, i) => (i ? gaps[i % gaps.length] : "") + w).join("");

  it("dedupeKey is the same for texts that differ only in case, whitespace runs and trailing punctuation", () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 8 }),
        fc.tuple(fc.array(gap, { minLength: 1 }), fc.array(gap, { minLength: 1 })),
        fc.tuple(trailing, trailing),
        fc.array(fc.boolean(), { minLength: 1 }),
        fc.tuple(leading, leading),
        (words, [gapsA, gapsB], [endA, endB], upper, [leadA, leadB]) => {
          const a = leadA + joinWith(words, gapsA) + endA;
          const b = leadB + recase(joinWith(words, gapsB), upper) + endB;
          expect(dedupeKey(a)).toBe(dedupeKey(b));
        },
      ),
      MANY,
    );
  });

  it("dedupeKey examples: different facts stay different", () => {
    expect(dedupeKey("Releases go out on Thursdays.")).toBe("releases go out on thursdays");
    expect(dedupeKey("  RELEASES   go out\non Thursdays!!! ")).toBe(dedupeKey("Releases go out on Thursdays."));
    expect(dedupeKey("Releases go out on Fridays.")).not.toBe(dedupeKey("Releases go out on Thursdays."));
    expect(dedupeKey("v1.2")).not.toBe(dedupeKey("v12"));
  });

  // Duplicates are found case-folded: lower-casing alone misses ß/SS and the final sigma.
  it("dedupeKey case-folds beyond lower-casing (ß and SS, σ and ς)", () => {
    expect(dedupeKey("Straße")).toBe(dedupeKey("STRASSE"));
    expect(dedupeKey("ΟΔΟΣ")).toBe(dedupeKey("οδοσ"));
  });
});
