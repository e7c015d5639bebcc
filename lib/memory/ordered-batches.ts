/**
 * Strings in sorted order, handed out a batch at a time, with the thread let go between steps.
 *
 * Why not one sort: the recall counts' flush (usage.ts) writes tens of thousands of fact ids in id
 * order, and sorting them all at once held its thread 22–32 ms at a million facts (56,000–63,000
 * ids every 5 s), a stall every question queued behind it felt (BENCHMARKS.md). Here the ids are
 * sorted in parts of at most PART, with a pause after each, and the parts merged a batch at a time
 * (a heap of the parts' next ids), with a pause between batches: no step holds the thread longer
 * than one part's sort.
 *
 * The order is the one `Array.prototype.sort()` without a comparator gives: UTF-16 code units, a
 * string before every longer string it begins.
 */

/** Ids sorted in one step: a part's sort holds the thread ~0.5–1 ms. */
export const PART = 2048;

/** A part being merged: its ids, sorted, and how many of them are handed out. */
type Cursor = { ids: string[]; at: number };

/** `ids` in sorted order, in arrays of `size` (the last may be shorter), awaiting `pause()` between steps. */
export async function* orderedBatches(ids: readonly string[], size: number, pause: () => Promise<void>): AsyncGenerator<string[]> {
  const heap: Cursor[] = [];
  for (let i = 0; i < ids.length; i += PART) {
    if (i) await pause();
    heap.push({ ids: ids.slice(i, i + PART).sort(), at: 0 });
  }
  if (heap.length > 1) await pause();
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(heap, i);
  while (heap.length) {
    const batch: string[] = [];
    while (batch.length < size && heap.length) {
      const top = heap[0];
      batch.push(top.ids[top.at++]);
      if (top.at === top.ids.length) {
        const last = heap.pop()!;
        if (heap.length) heap[0] = last;
      }
      siftDown(heap, 0);
    }
    yield batch;
    if (heap.length) await pause();
  }
}

const head = (cursor: Cursor) => cursor.ids[cursor.at];

/** Moves heap[i] down until neither child's next id is smaller. */
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
