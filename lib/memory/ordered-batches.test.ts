/**
 * The counts flush's order (ordered-batches.ts): the batches, put end to end, are exactly the
 * ids sorted as a plain sort() sorts them — for ids that share long prefixes, ids that are a
 * prefix of others, and characters outside ASCII — every batch full but the last; and on a
 * flush's worth of fact ids, no step between two pauses sorts more than one part.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { newId } from "@/lib/ids";
import { orderedBatches, PART } from "./ordered-batches";

async function batchesOf(ids: readonly string[], size: number, pause = async () => {}): Promise<string[][]> {
  const batches: string[][] = [];
  for await (const batch of orderedBatches(ids, size, pause)) batches.push(batch);
  return batches;
}

/** Where two lists first differ (-1: equal): a failure names a place, not a diff of 60,000 lines. */
function firstDifference(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}

describe("ordered batches", () => {
  it("put end to end are the ids as sort() orders them, every batch full but the last", async () => {
    // A few characters, so ids share prefixes, and enough ids for several parts to merge.
    const id = fc.string({ unit: fc.constantFrom("a", "b", "B", "é", "😀", "_"), maxLength: 9 });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id, { maxLength: 3 * PART, size: "max" }), fc.integer({ min: 1, max: 900 }), async (ids, size) => {
        const batches = await batchesOf(ids, size);
        expect(firstDifference(batches.flat(), [...ids].sort())).toBe(-1);
        batches.slice(0, -1).forEach((batch) => expect(batch).toHaveLength(size));
        expect(batches.at(-1)?.length ?? 1).toBeGreaterThan(0);
      }),
      // No shrinking: each try merges thousands of ids, and shrinking one took minutes; the first case is reported.
      { numRuns: 60, endOnFailure: true },
    );
  });

  it("order a flush's worth of fact ids, and ids that begin others, like one sort", async () => {
    const ids = Array.from({ length: 60_000 }, () => newId("fact"));
    ids.push("fact_", "fact", "fac");
    const batches = await batchesOf(ids, 750);
    expect(firstDifference(batches.flat(), [...ids].sort())).toBe(-1);
    expect(batches[0].slice(0, 3)).toEqual(["fac", "fact", "fact_"]);
    expect(batches).toHaveLength(Math.ceil(ids.length / 750));
  });

  it("sort at most one part between two pauses, and pause between batches", async () => {
    // Counted rather than timed: how many ids the comparator-free sorts take between pauses.
    const ids = Array.from({ length: 60_000 }, () => newId("fact"));
    const sort = Array.prototype.sort;
    let sortedSincePause = 0;
    let mostBetweenPauses = 0;
    let pauses = 0;
    Array.prototype.sort = function (this: unknown[], ...args: Parameters<typeof sort>) {
      if (!args.length) mostBetweenPauses = Math.max(mostBetweenPauses, (sortedSincePause += this.length));
      return sort.apply(this, args) as never;
    };
    try {
      const batches = await batchesOf(ids, 750, async () => {
        pauses += 1;
        sortedSincePause = 0;
      });
      expect(mostBetweenPauses).toBe(PART);
      // One after each part but the last, one before the merge, one between batches.
      expect(pauses).toBe(Math.ceil(ids.length / PART) - 1 + 1 + batches.length - 1);
    } finally {
      Array.prototype.sort = sort;
    }
  });
});
