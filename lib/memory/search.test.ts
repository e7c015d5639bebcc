import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ftsQuery } from "./search";

describe("ftsQuery", () => {
  it("quotes every word and lets the last one match as a prefix", () => {
    expect(ftsQuery("  Release  thurs ")).toBe('"Release" "thurs"*');
  });

  it("drops punctuation and FTS5 operators' syntax instead of interpreting it", () => {
    expect(ftsQuery('body:"x" OR (y) NEAR/2 -z')).toBe('"body" "x" "OR" "y" "NEAR" "2" "z"*');
  });

  it("is null when nothing searchable is left", () => {
    expect(ftsQuery("  ?! ")).toBeNull();
    expect(ftsQuery("")).toBeNull();
  });

  it("always yields balanced quotes, whatever is typed", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (text) => {
        const query = ftsQuery(text);
        if (query === null) return;
        const unescaped = query.replaceAll('""', "");
        expect(unescaped.split('"').length % 2).toBe(1);
      }),
      { numRuns: 2000 },
    );
  });
});
