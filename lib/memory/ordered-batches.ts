/**
 * Fact seqs in ascending order, handed out a batch at a time, with the thread let go between steps.
 *
 * Why not one sort: the recall counts' flush (usage.ts) writes tens of thousands of facts' counts
 * in seq order, and sorting them all at once holds the thread too long: 100,000 numbers take
 * ~10 ms even as a Float64Array (ids as strings took 22–32 ms for 60,000, BENCHMARKS.md), a stall
 * every question queued behind it feels. Here the seqs are sorted in parts of at most PART, with a
 * pause after each, and the parts merged a batch at a time (a heap of the parts' next seqs), with
 * a pause between batches: no step holds the thread longer than one part's sort.
 */

/** Seqs sorted in one step: a part's sort holds the thread well under a millisecond. */
export const PART = 4096;

/** A part being merged: its seqs, sorted, and how many of them are handed out. */
type Cursor = { seqs: Float64Array; at: number };

/** `seqs` in ascending order, in arrays of `size` (the last may be shorter), awaiting `pause()` between steps. */
export async function* orderedBatches(seqs: readonly number[], size: number, pause: () => Promise<void>): AsyncGenerator<number[]> {
  const heap: Cursor[] = [];
  for (let i = 0; i < seqs.length; i += PART) {
    if (i) await pause();
    // A typed array sorts numbers as numbers, natively: a third of a plain array's sort with a comparator.
    heap.push({ seqs: Float64Array.from(seqs.slice(i, i + PART)).sort(), at: 0 });
  }
  if (heap.length > 1) await pause();
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  while (heap.length) {
    const batch: number[] = [];
    while (batch.length < size && heap.length) {
      const top = heap[0];
      batch.push(top.seqs[top.at++]);
      if (top.at === top.seqs.length) {
        const last = heap.pop()!;
        if (heap.length) heap[0] = last;
      }
      siftDown(heap, 0);
    }
    yield batch;
    if (heap.length) await pause();
  }
}

const head = (cursor: Cursor) => cursor.seqs[cursor.at];

/** Moves heap[i] down until neither child's next seq is smaller. */
function siftDown(heap: Cursor[], i: number): void {
  for (;;) {
    const left = 2 * i + 1;
    if (left >= heap.length) return;
    const child = left + 1 < heap.length && head(heap[left + 1]) < head(heap[left]) ? left + 1 : left;
    if (!(head(heap[child]) < head(heap[i]))) return;
    [heap[i], heap[child]] = [heap[child], heap[i]];
    i = child;
  }
}
