import { describe, expect, it } from "vitest";
import { KeptValues } from "./kept-values";

describe("KeptValues", () => {
  it("works a key's value out once, then hands back the same value", () => {
    const made: string[] = [];
    const kept = new KeptValues<string, { of: string }>(10);
    const make = (key: string) => {
      made.push(key);
      return { of: key };
    };
    const first = kept.get("refund", make);
    expect(kept.get("refund", make)).toBe(first);
    expect(kept.get("approval", make)).toEqual({ of: "approval" });
    expect(made).toEqual(["refund", "approval"]);
  });

  it("keeps at most `most` keys: past that it starts again, and a key asked again is worked out again", () => {
    const made: number[] = [];
    const kept = new KeptValues<number, number>(3);
    const square = (n: number) => (made.push(n), n * n);
    for (const n of [1, 2, 3]) kept.get(n, square);
    expect(kept.get(4, square)).toBe(16); // the fourth key: the three before it are let go
    expect(kept.get(4, square)).toBe(16);
    expect(kept.get(1, square)).toBe(1);
    expect(made).toEqual([1, 2, 3, 4, 1]);
  });
});
