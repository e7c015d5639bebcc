/**
 * The counts flush's order (ordered-batches.ts): the batches, put end to end, are exactly the
 * seqs in ascending order — for seqs from one to 2^53 − 1 — every batch full but the last; and
 * on a flush's worth of fact seqs, no step between two pauses sorts more than one part.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { orderedBatches, PART } from "./ordered-batches";

async function batchesOf(seqs: readonly number[], size: number, pause = async () => {}): Promise<number[][]> {
  const batches: number[][] = [];
  for await (const batch of orderedBatches(seqs, size, pause)) batches.push(batch);
  return batches;
}

/** Where two lists first differ (-1: equal): a failure names a place, not a diff of 60,000 lines. */
function firstDifference(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return -1;
}

const ascending = (seqs: readonly number[]) => [...seqs].sort((a, b) => a - b);
/** A flush's worth of seqs at a million facts, in the order they were counted. */
const flushOfSeqs = () => [...new Set(Array.from({ length: 60_000 }, () => 1 + Math.floor(Math.random() * 1_000_000)))];

describe("ordered batches", () => {
  it("put end to end are the seqs in ascending order, every batch full but the last", async () => {
    // Small seqs beside large ones (a string sort would put 10 before 9), and enough for several parts to merge.
    const seq = fc.oneof(fc.integer({ min: 1, max: 200 }), fc.maxSafeInteger().filter((n) => n > 0));
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(seq, { maxLength: 3 * PART, size: "max" }), fc.integer({ min: 1, max: 900 }), async (seqs, size) => {
        const batches = await batchesOf(seqs, size);
        expect(firstDifference(batches.flat(), ascending(seqs))).toBe(-1);
        batches.slice(0, -1).forEach((batch) => expect(batch).toHaveLength(size));
        expect(batches.at(-1)?.length ?? 1).toBeGreaterThan(0);
      }),
      // No shrinking: each try merges thousands of seqs, and shrinking one took minutes; the first case is reported.
      { numRuns: 60, endOnFailure: true },
    );
  });

  it("order a flush's worth of fact seqs like one sort", async () => {
    const seqs = [...flushOfSeqs(), 2_000_000, 9, 10];
    const batches = await batchesOf(seqs, 750);
    expect(firstDifference(batches.flat(), ascending(seqs))).toBe(-1);
    expect(batches.at(-1)!.at(-1)).toBe(2_000_000);
    expect(batches).toHaveLength(Math.ceil(seqs.length / 750));
  });

  it("sort at most one part between two pauses, and pause between batches", async () => {
    // Counted rather than timed: how many seqs the typed arrays' sorts take between pauses.
    const seqs = flushOfSeqs();
    const sort = Float64Array.prototype.sort;
    let sortedSincePause = 0;
    let mostBetweenPauses = 0;
    let pauses = 0;
    Float64Array.prototype.sort = function (this: Float64Array, ...args: Parameters<typeof sort>) {
      mostBetweenPauses = Math.max(mostBetweenPauses, (sortedSincePause += this.length));
      return sort.apply(this, args);
    };
    try {
      const batches = await batchesOf(seqs, 750, async () => {
        pauses += 1;
        sortedSincePause = 0;
      });
      expect(mostBetweenPauses).toBe(PART);
      // One after each part but the last, one before the merge, one between batches.
      expect(pauses).toBe(Math.ceil(seqs.length / PART) - 1 + 1 + batches.length - 1);
    } finally {
      Float64Array.prototype.sort = sort;
    }
  });
});
