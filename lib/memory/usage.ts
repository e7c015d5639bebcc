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
 */
import { writeTransaction, type Conn, type Db, type Writes } from "@/db/client";
import { readConfig } from "@/lib/config";
import { orderedBatches } from "./ordered-batches";

type Pending = { count: number; lastAt: number };

// Adds a batch of facts' counts in one statement, from a JSON array of [fact id,
// count, last recalled at (ISO)]. max() keeps the newest time when two processes'
// batches cross (coalesce: max() of a NULL is NULL).
// One statement a batch, in id order, rather than one a fact: at a million facts the
// counts of a few seconds name tens of thousands of facts spread over the whole id
// index, and an upsert each in random order cost ~15 µs of CPU; in order and batched,
// neighbours share the index pages just read (BENCHMARKS.md).
// The foreign key finds each fact once; a batch naming a fact purged since its recall
// breaks it, and only such a batch is written again through facts (a join: the ids
// not there add nothing), which looks every fact up twice: nearly twice the cost a
// fact at a million facts, so not for the batches that do not need it (BENCHMARKS.md).
const addSql = (throughFacts: boolean) => `INSERT INTO fact_usage (fact_id, recalled_count, last_recalled_at)
  SELECT ${throughFacts ? "facts.id" : "j.value ->> 0"}, j.value ->> 1, j.value ->> 2
  FROM json_each(?) j ${throughFacts ? "JOIN facts ON facts.id = j.value ->> 0" : ""}
  WHERE true -- SQLite reads an upsert's ON after a FROM as the join's without a WHERE between
  ON CONFLICT (fact_id) DO UPDATE SET
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

/** Resolves after the event loop has run what was waiting (timers, sockets' input), not only promises. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** One thread's counts not yet written, per database; the app keeps one per thread (see `threadUsage`), tests make their own. */
export class UsageCounter {
  private readonly pending = new Map<Conn, Map<string, Pending>>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(private readonly intervalMs: number) {}

  /** Counts one recall of each fact; written with the next flush, at most `intervalMs` from now. */
  note(db: Conn, factIds: readonly string[], now: number = Date.now()): void {
    if (!factIds.length) return;
    let counts = this.pending.get(db);
    if (!counts) this.pending.set(db, (counts = new Map()));
    for (const id of factIds) {
      const entry = counts.get(id);
      if (entry) {
        entry.count += 1;
        entry.lastAt = Math.max(entry.lastAt, now);
      } else {
        counts.set(id, { count: 1, lastAt: now });
      }
    }
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
    for (const counts of this.pending.values()) n += counts.size;
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
    const batches = [...this.pending].filter(([db]) => !(db as Partial<Db>).$client?.closed);
    this.pending.clear();
    this.flushing = (async () => {
      const failures: unknown[] = [];
      for (const [db, counts] of batches) {
        // A flush's times are a few seconds' milliseconds: each written out once, not once per fact.
        const times = new Map<number, string>();
        const iso = (at: number) => {
          let text = times.get(at);
          if (text === undefined) times.set(at, (text = new Date(at).toISOString()));
          return text;
        };
        const row = (id: string) => {
          const { count, lastAt } = counts.get(id)!;
          return [id, count, iso(lastAt)];
        };
        const writer = countsWriters.get(db);
        // In id order, sorted in parts and merged a batch at a time, letting requests in between each step
        // (ordered-batches.ts): one sort of them all held the thread ~30 ms; and the driver is synchronous,
        // so an awaited write yields only to promises.
        for await (const ids of orderedBatches([...counts.keys()], USAGE_BATCH, nextTurn)) {
          try {
            const batch = JSON.stringify(ids.map(row));
            const here = () => writeCountsHere(db, batch);
            await (writer ? writer(batch, here) : here());
          } catch (error) {
            // This batch and the ones after it wait for the next flush; those written stay written.
            this.putBack(db, counts);
            failures.push(error);
            break;
          }
          for (const id of ids) counts.delete(id);
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
  private putBack(db: Conn, counts: Map<string, Pending>): void {
    const current = this.pending.get(db);
    if (!current) {
      this.pending.set(db, counts);
      return;
    }
    for (const [id, old] of counts) {
      const entry = current.get(id);
      if (entry) {
        entry.count += old.count;
        entry.lastAt = Math.max(entry.lastAt, old.lastAt);
      } else {
        current.set(id, old);
      }
    }
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

/** Counts one served recall of these facts; no database write now (see UsageCounter). */
export function noteRecalled(db: Conn, factIds: readonly string[]): void {
  threadUsage().note(db, factIds);
}

/** Writes this thread's counts now; a graceful stop calls it before the process exits (the agent thread, before it ends). */
export function flushUsage(): Promise<void> {
  return threadUsage().flush();
}
