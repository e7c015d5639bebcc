/**
 * HOSTILE TEXT (SECURITY.md, "Reviewed and fixed"): what an attacker hides in a fact. Text made
 * only of invisible characters, bidi controls that show one thing and store
 * another, lone surrogates, tag letters that only models read; and credentials
 * broken up by zero-width characters and soft hyphens, or spelled in fullwidth,
 * so that a pattern looking for `ghp_` no longer sees one.
 *
 * The properties: invisible-only text is refused like whitespace-only text;
 * cleaned text and the prompt section never hold a bidi control, a zero-width
 * character (but the joiner inside an emoji) or a lone surrogate; and no amount
 * of invisible or fullwidth spelling lets a credential through.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cleanFact } from "@/lib/memory/fact-text";
import { memorySection } from "@/lib/memory/prompt-section";
import { looksLikeSecret } from "@/lib/memory/secrets";
import { SECRET_SAMPLES } from "@/lib/memory/secrets.fixtures";

const RUNS = { numRuns: 2_000 };

const BIDI = ["\u061c", "\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069"];
const ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\u2061", "\u2062", "\u2063", "\u2064", "\ufeff", "\u00ad", "\u180e", "\u034f"];
const OTHER_INVISIBLE = ["\u3164", "\uffa0", "\u115f", "\u1160", "\ufe0f", "\u{e0001}", "\u{e0041}", "\u{e007f}", "\ufff9", "\ufffb", "\u2800"];
const WHITESPACE = [" ", "\n", "\r\n", "\t", "\u00a0", "\u2028", "\u2029", "\u0085", "\u3000", "\u0000"];
const SURROGATES = ["\ud800", "\udbff", "\udc00", "\udfff"];
/** Low halves only: two of them never make a pair, so they stay lone wherever they fall. */
const LOW_SURROGATES = ["\udc00", "\udfff"];

const invisible = fc.constantFrom(...BIDI, ...ZERO_WIDTH, ...OTHER_INVISIBLE, ...SURROGATES);
const blankOrInvisible = fc.constantFrom(...BIDI, ...ZERO_WIDTH, ...OTHER_INVISIBLE, ...LOW_SURROGATES, ...WHITESPACE);

/** Bidi controls, zero-width characters and tag letters, and lone surrogates (a surrogate not in a pair). */
const FORBIDDEN = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u200b\u200c\u2060-\u2064\ufeff\u00ad\u180e\u034f\u3164\uffa0\u115f\u1160\ufff9-\ufffb]|\p{Cs}/u;
/** The joiner is kept only between two emoji (an emoji may carry a variation selector or skin tone). */
const STRAY_JOINER = /(?<!\p{Extended_Pictographic}[\ufe0f\u{1f3fb}-\u{1f3ff}]?)\u200d|\u200d(?!\p{Extended_Pictographic})/u;
/** Tag letters outside a flag. */
const STRAY_TAG = /(?<!\u{1f3f4}[\u{e0030}-\u{e0039}\u{e0061}-\u{e007a}]*)[\u{e0000}-\u{e007f}]/u;

/** Text with ordinary letters, emoji, whitespace and every kind of invisible character mixed in. */
const hiddenText = fc.string({
  unit: fc.oneof(
    { weight: 3, arbitrary: invisible },
    { weight: 3, arbitrary: fc.constantFrom("a", "Z", "é", "e\u0301", "漢", "😀", "👩", "💻", "🏴", "❤", "👍🏽", "1", "-", "_", " ", "\n") },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 3 }) },
  ),
  maxLength: 600,
});

describe("invisible text", () => {
  it("text made only of whitespace, invisible characters, bidi controls and lone surrogates is refused as blank", () => {
    fc.assert(
      fc.property(fc.string({ unit: blankOrInvisible, minLength: 1, maxLength: 600 }), (blank) => {
        expect(cleanFact(blank)).toBeNull();
      }),
      RUNS,
    );
  });

  it("cleaned text never holds a bidi control, a zero-width character, a stray joiner or tag, or a lone surrogate", () => {
    fc.assert(
      fc.property(hiddenText, (text) => {
        const clean = cleanFact(text);
        if (clean === null) return;
        expect(clean).not.toMatch(FORBIDDEN);
        expect(clean).not.toMatch(STRAY_JOINER);
        expect(clean).not.toMatch(STRAY_TAG);
        expect(clean.isWellFormed()).toBe(true);
        expect(cleanFact(clean)).toBe(clean);
      }),
      RUNS,
    );
  });

  it("what a reader sees survives: letters, emoji sequences, a flag and a heart's variation selector", () => {
    expect(cleanFact("Ship\u200b it \u202eon Thursdays\u202c 🚀")).toBe("Ship it on Thursdays 🚀");
    expect(cleanFact("👩\u200d💻 pairs with 👍🏽\u200d\u200d🚀")).toBe("👩\u200d💻 pairs with 👍🏽🚀");
    expect(cleanFact("Scotland 🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} ❤\ufe0f")).toBe(
      "Scotland 🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} ❤\ufe0f",
    );
    expect(cleanFact("Note\u{e0069}\u{e0067}\u{e006e}\u{e006f}\u{e0072}\u{e0065} this")).toBe("Note this");
    expect(cleanFact("cafe\u0301")).toBe("café"); // NFC, not NFKC: "ﬁ" stays a ligature
    expect(cleanFact("ﬁle")).toBe("ﬁle");
  });

  it("the prompt section never holds a bidi control or a tag letter, even for a fact stored before cleaning removed them", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.string(), body: hiddenText, sourceLabel: fc.option(hiddenText, { nil: null }) }), { minLength: 1, maxLength: 5 }), (facts) => {
        const section = memorySection(facts.map((fact) => ({ ...fact, scope: "workspace", pinned: false })))!;
        expect(section).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u{e0000}-\u{e007f}]/u);
      }),
      RUNS,
    );
  });
});

describe("secrets in disguise", () => {
  const secret = fc.constantFrom(...SECRET_SAMPLES);
  const hider = fc.constantFrom(...ZERO_WIDTH, ...BIDI, "\ufe0f", "\u{e0020}");

  it("inserting invisible characters or soft hyphens into a credential never lets it through", () => {
    fc.assert(
      fc.property(secret, fc.array(fc.tuple(fc.nat(), hider), { minLength: 1, maxLength: 12 }), (text, insertions) => {
        let hidden = text;
        for (const [at, char] of insertions) {
          const cut = at % (hidden.length + 1);
          hidden = `${hidden.slice(0, cut)}${char}${hidden.slice(cut)}`;
        }
        expect(looksLikeSecret(hidden), JSON.stringify(hidden)).not.toBeNull();
        // And as stored: cleaning first, as every writer does, changes nothing.
        const clean = cleanFact(hidden);
        if (clean !== null) expect(looksLikeSecret(clean), JSON.stringify(clean)).not.toBeNull();
      }),
      RUNS,
    );
  });

  it("fullwidth spellings of a credential (which NFKC folds back) are refused", () => {
    const toFullwidth = (char: string) => {
      const code = char.charCodeAt(0);
      return code >= 0x21 && code <= 0x7e ? String.fromCharCode(code + 0xfee0) : char;
    };
    fc.assert(
      fc.property(secret, fc.array(fc.boolean(), { minLength: 1, maxLength: 400 }), (text, widen) => {
        const wide = [...text].map((char, i) => (widen[i % widen.length] ? toFullwidth(char) : char)).join("");
        expect(looksLikeSecret(wide), wide).not.toBeNull();
      }),
      RUNS,
    );
  });
});
