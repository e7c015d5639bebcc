/**
 * How often each fact was recalled, and when last, for people on the Memory page
 * and in the export. Counted in memory and written in batches, like the rate
 * limit's counts (lib/api/rate-limit.ts): a write transaction per recall would
 * cost more than the recall. Written to fact_usage, beside facts, never to facts
 * itself: a facts UPDATE bumps the agent's memory version and would make every
 * kept recall answer stale.
 *
 * The tolerance: counts reach the database at most MNEMO_USAGE_FLUSH_MS after the
 * recall. A graceful stop writes them first (lib/ops/flush-before-exit.ts, and the
 * agent thread as it closes); a crash loses at most that window's counts, and a
 * power cut also the batches written since the last commit that waited for the
 * disk: the counts' commits do not (db/writer.ts WriteOptions), since the request
 * loop waits through each fsync: 15–20 % of a flush at a million facts
 * (BENCHMARKS.md).
 *
 * Counted by the fact's seq (its integer key), not its id: cheaper to count, sort,
 * send and look up. The one thing an id did that a seq does not: SQLite gives a new
 * row the largest seq plus one, so when the newest fact is purged, the next fact made
 * gets its seq. A count noted for the purged fact and not yet written — at most one
 * window, longer only while flushes fail — is then added to the new fact. Only a
 * number moves, never a word of the purged fact; seqs never reused would mean
 * rebuilding `facts` with AUTOINCREMENT.
 */
import { writeTransaction, type Conn, type Db, type Writes } from "@/db/client";
import { readConfig } from "@/lib/config";
import { nextTurn } from "@/lib/ops/next-turn";
import { orderedBatches } from "./ordered-batches";

// Adds a batch of facts' counts in one statement, from a JSON array of [fact seq, count, last recalled at (ISO)].
// max() keeps the newest time when two processes' batches cross (coalesce: max() of a NULL is NULL).
// One statement a batch, in seq order, rather than one a fact: at a million facts the counts of a few seconds name
// tens of thousands of facts spread over the whole table, and an upsert each in random order cost ~15 µs of CPU;
// in order and batched, neighbours share the pages just read (BENCHMARKS.md).
// The foreign key finds each fact once, by its rowid; a batch naming a fact purged since its recall breaks it, and
// only such a batch is written again through facts (a join: the seqs not there add nothing), which looks every fact
// up twice, so not for the batches that do not need it.
const addSql = (throughFacts: boolean) => `INSERT INTO fact_usage (fact_seq, recalled_count, last_recalled_at)
  SELECT ${throughFacts ? "facts.seq" : "j.value ->> 0"}, j.value ->> 1, j.value ->> 2
  FROM json_each(?) j ${throughFacts ? "JOIN facts ON facts.seq = j.value ->> 0" : ""}
  WHERE true -- SQLite reads an upsert's ON after a FROM as the join's without a WHERE between
  ON CONFLICT (fact_seq) DO UPDATE SET
    recalled_count = fact_usage.recalled_count + excluded.recalled_count,
    last_recalled_at = max(coalesce(fact_usage.last_recalled_at, ''), excluded.last_recalled_at)`;
const ADD_SQL = addSql(false);
const ADD_THROUGH_FACTS_SQL = addSql(true);
/** The foreign key's refusal, as SQLite words it (a file's driver and a libSQL server alike). */
const FOREIGN_KEY_FAILED = /FOREIGN KEY constraint failed/;

/** Writes one batch's counts; the statement that breaks the key is undone whole, so the second writes them once. */
async function addCounts(writes: Writes, batch: string): Promise<void> {
  try {
    await writes.run(ADD_SQL, [batch]);
  } catch (error) {
    if (!FOREIGN_KEY_FAILED.test(String((error as Error)?.message))) throw error;
    await writes.run(ADD_THROUGH_FACTS_SQL, [batch]);
  }
}

/** Writes one batch of counts (a JSON array, as flush makes them) on this thread's connection, its own transaction. */
export function writeCountsHere(db: Conn, batch: string): Promise<void> {
  return writeTransaction(db, (writes) => addCounts(writes, batch), { fsync: false });
}

/**
 * Who writes a database's batches instead of this thread, given the batch and how to write it here (its fallback).
 * The serving thread hands the app's to the agent thread (lib/api/agent-thread.ts): a batch holds the thread that
 * runs it ~1.4–5 ms at a million facts, and the COMMIT that runs the WAL's checkpoint 20–130 ms (BENCHMARKS.md),
 * and the serving thread is the one every request, page and health check waits for.
 */
export type CountsWriter = (batch: string, here: () => Promise<void>) => Promise<void>;
// On globalThis, like the counter: the bundler makes several copies of this module.
const countsWriters = ((globalThis as { mnemoCountsWriters?: WeakMap<Conn, CountsWriter> }).mnemoCountsWriters ??= new WeakMap());

/** From now on, `writer` writes this thread's counts for `db` (until the database is closed). */
export function writeCountsWith(db: Conn, writer: CountsWriter): void {
  countsWriters.set(db, writer);
}
/**
 * Facts per statement, each its own transaction: a statement holds the event loop (the driver is synchronous),
 * so requests wait at most one batch (~1.4 ms), not the whole flush — at a million facts, a few seconds' counts
 * took ~200 ms in one go, and that was the slowest recalls' wait. (A COMMIT that runs the WAL's checkpoint still
 * holds it for tens of ms.) 750 since the statement looks each fact up once (~1.8 µs a fact): the same wait as 250
 * took before, a third of the commits, each of which empties the read connections' page caches (BENCHMARKS.md).
 */
export const USAGE_BATCH = 750;

/**
 * One database's counts not yet written: each fact's slot by its seq, and each slot's count and latest time in
 * typed arrays. Not an object a fact: at a million facts a window names ~100,000 facts, each object lived the
 * window out and was promoted, and the map of them cost the agent thread ~40 µs a question (BENCHMARKS.md).
 */
class Tally {
  private readonly slots = new Map<number, number>();
  /** Slots ever handed out: a slot is never given twice, even after its fact is dropped (written). */
  private used = 0;
  // Float64, not Int32: a count that waits through failing flushes must not wrap.
  private counts = new Float64Array(1024);
  private lastAt = new Float64Array(1024);

  get size(): number {
    return this.slots.size;
  }

  seqs(): number[] {
    return [...this.slots.keys()];
  }

  add(seq: number, count: number, at: number): void {
    const slot = this.slots.get(seq);
    if (slot !== undefined) {
      this.counts[slot] += count;
      if (at > this.lastAt[slot]) this.lastAt[slot] = at;
      return;
    }
    const next = this.used++;
    if (next === this.counts.length) this.grow();
    this.slots.set(seq, next);
    this.counts[next] = count;
    this.lastAt[next] = at;
  }

  /** Forgets facts whose counts are written; their slots stay used (see `used`) until the tally is let go. */
  drop(seqs: readonly number[]): void {
    for (const seq of seqs) this.slots.delete(seq);
  }

  /** Every fact still here added to `into` (a failed flush's counts, merged with those noted since). */
  addTo(into: Tally): void {
    for (const [seq, slot] of this.slots) into.add(seq, this.counts[slot], this.lastAt[slot]);
  }

  /** The batch's JSON, [[seq, count, ISO time], …], written as text: no array a fact made and stringified. */
  batchJson(seqs: readonly number[], iso: (at: number) => string): string {
    const rows = seqs.map((seq) => {
      const slot = this.slots.get(seq)!;
      return `[${seq},${this.counts[slot]},"${iso(this.lastAt[slot])}"]`;
    });
    return `[${rows.join(",")}]`;
  }

  private grow(): void {
    this.counts = doubled(this.counts);
    this.lastAt = doubled(this.lastAt);
  }
}

/** `values` in an array twice as long, the rest zero. */
function doubled(values: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const longer = new Float64Array(values.length * 2);
  longer.set(values);
  return longer;
}

/** One thread's counts not yet written, per database; the app keeps one per thread (see `threadUsage`), tests make their own. */
export class UsageCounter {
  private readonly pending = new Map<Conn, Tally>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(private readonly intervalMs: number) {}

  /** Counts one recall of each fact, by seq; written with the next flush, at most `intervalMs` from now. */
  note(db: Conn, factSeqs: readonly number[], now: number = Date.now()): void {
    if (!factSeqs.length) return;
    let tally = this.pending.get(db);
    if (!tally) this.pending.set(db, (tally = new Tally()));
    for (const seq of factSeqs) tally.add(seq, 1, now);
    this.schedule();
  }

  /** One timer while counts wait; unref: it never keeps a process alive (a graceful stop flushes on its own). */
  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush().catch((error: unknown) => {
        console.error(`[usage] could not write recall counts, will retry: ${error instanceof Error ? error.message : String(error)}`);
        this.schedule();
      });
    }, this.intervalMs).unref();
  }

  /** Facts with counts not yet written (for tests and the shutdown log). */
  get unwritten(): number {
    let n = 0;
    for (const tally of this.pending.values()) n += tally.size;
    return n;
  }

  /**
   * Writes every count noted so far, a write transaction per batch of facts; resolves
   * once they are written (not fsynced: see the top of this file). One flush at a
   * time: a call during a flush waits for it, then writes what came in meanwhile. A
   * failed write keeps its counts for the next.
   */
  async flush(): Promise<void> {
    // Its failure is its own caller's to hear; this call then writes what was put back.
    while (this.flushing) await this.flushing.catch(() => undefined);
    if (!this.pending.size) return;
    // A closed database (a test's file, or the app's at exit) takes no more writes: its counts have nowhere to go.
    const tallies = [...this.pending].filter(([db]) => !(db as Partial<Db>).$client?.closed);
    this.pending.clear();
    this.flushing = (async () => {
      const failures: unknown[] = [];
      for (const [db, tally] of tallies) {
        // A flush's times are a few seconds' milliseconds: each written out once, not once per fact.
        const times = new Map<number, string>();
        const iso = (at: number) => {
          let text = times.get(at);
          if (text === undefined) times.set(at, (text = new Date(at).toISOString()));
          return text;
        };
        const writer = countsWriters.get(db);
        // In seq order, sorted in parts and merged a batch at a time, letting requests in between each step
        // (ordered-batches.ts); and the driver is synchronous, so an awaited write yields only to promises.
        for await (const seqs of orderedBatches(tally.seqs(), USAGE_BATCH, nextTurn)) {
          try {
            const batch = tally.batchJson(seqs, iso);
            const here = () => writeCountsHere(db, batch);
            await (writer ? writer(batch, here) : here());
          } catch (error) {
            // This batch and the ones after it wait for the next flush; those written stay written.
            this.putBack(db, tally);
            failures.push(error);
            break;
          }
          tally.drop(seqs);
        }
      }
      if (failures.length) throw failures[0];
    })();
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  /** Counts of a failed write, merged with any noted since, so none is lost and none counted twice. */
  private putBack(db: Conn, tally: Tally): void {
    // Always copied into a tally of its own: the failed one's written slots would otherwise stay used for good.
    let current = this.pending.get(db);
    if (!current) this.pending.set(db, (current = new Tally()));
    tally.addTo(current);
  }
}

/**
 * This thread's counter, shared by every copy of this module the bundler makes (REST, MCP, instrumentation).
 * The agent thread (lib/api/agent-thread.ts) has its own: it counts the answers it makes and writes them on
 * its own connection, and before it closes; while it runs, it writes the serving thread's batches too
 * (writeCountsWith).
 */
function threadUsage(): UsageCounter {
  const shared = globalThis as { mnemoUsage?: UsageCounter };
  return (shared.mnemoUsage ??= new UsageCounter(readConfig().MNEMO_USAGE_FLUSH_MS));
}

/** Counts one served recall of these facts, by seq; no database write now (see UsageCounter). */
export function noteRecalled(db: Conn, factSeqs: readonly number[]): void {
  threadUsage().note(db, factSeqs);
}

/** Writes this thread's counts now; a graceful stop calls it before the process exits (the agent thread, before it ends). */
export function flushUsage(): Promise<void> {
  return threadUsage().flush();
}
