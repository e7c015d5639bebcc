/**
 * Too many requests per agent key → 429 with Retry-After. A fixed window counted
 * in the database (one row per key), so the limit holds across every server
 * process that shares it — but not written on every request: a write
 * transaction per call (a turn in the file's queue and an fsync) cost more than
 * the recall it guarded.
 *
 * Each process counts requests in memory. It reads a key's row (a plain read, no
 * write) when its copy is older than FLUSH_INTERVAL_MS, and adds its counts for
 * every key to the rows in one write transaction at most every
 * FLUSH_INTERVAL_MS. It decides with the database total plus its own requests
 * not yet in it. The tolerance: with P processes serving one key, the key can go
 * over the limit by what the other processes admitted in their last
 * FLUSH_INTERVAL_MS or so — at the default 1,200 a minute, about 20 per other
 * process, against a limit per minute. A single process is exact. One second,
 * not less: with hundreds of keys busy, the flush and the reads of stale copies
 * were a large part of a recall's cost at 250 ms.
 *
 * The flush's COMMIT does not wait for the disk (db/writer.ts WriteOptions), as the
 * recall counts' do not (lib/memory/usage.ts): it runs on the thread that serves
 * every request, once a second, and the driver is synchronous, so an fsync there
 * held every request in flight — up to tens of ms where other connections' writes
 * were waiting for the same sync (BENCHMARKS.md). A power cut may lose the counts of
 * the last seconds, which only lets a key through a little more in that window.
 */
import { readOne, writeTransaction, type Conn } from "@/db/client";
import { apiError } from "./errors";

/** The window; the limit per window is MNEMO_API_RATE_LIMIT (lib/config.ts). */
export const RATE_WINDOW_MS = 60_000;
/** How stale a process's copy of a key's total may be, and how often it writes its counts, at most. */
export const FLUSH_INTERVAL_MS = 1_000;

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type KeyCount = {
  windowStart: number;
  /** The key's total in the database when this process last read or wrote it. */
  stored: number;
  /** Requests this process counted in the window, and how many of them are in `stored`. */
  counted: number;
  written: number;
  syncedAt: number;
};

type Row = { count: number; windowStart: number };

const READ_SQL = "SELECT count, window_start AS windowStart FROM api_rate_limits WHERE key_id = ?";

// Adds a process's counts to a key's row: a newer window starts the count again. The
// SET expressions read the row as it was. A key deleted meanwhile adds nothing.
// Parameters: key id, window start, count, key id.
const ADD_SQL = `INSERT INTO api_rate_limits (key_id, window_start, count)
  SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM agent_keys WHERE id = ?)
  ON CONFLICT (key_id) DO UPDATE SET
    count = CASE WHEN excluded.window_start > api_rate_limits.window_start
      THEN excluded.count ELSE api_rate_limits.count + excluded.count END,
    window_start = max(api_rate_limits.window_start, excluded.window_start)
  RETURNING count, window_start AS windowStart`;

/** One process's counts; the app keeps one per process (see `processLimiter`), tests make several. */
export class RateLimiter {
  private readonly keys = new Map<string, KeyCount>();
  private flushedAt = -Infinity;
  private flushing: Promise<void> | null = null;

  constructor(private readonly intervalMs: number = FLUSH_INTERVAL_MS) {}

  /**
   * Counts one request for `keyId` and says whether it is within `limit`. A request
   * in a newer window starts the count again; one from a server whose clock lags
   * counts in the current window.
   */
  async count(db: Conn, keyId: string, limit: number, now: number = Date.now()): Promise<RateVerdict> {
    const windowStart = now - (now % RATE_WINDOW_MS);
    let state = this.keys.get(keyId);
    if (!state || state.windowStart < windowStart) {
      // Counts not yet written for an older window no longer matter: the row starts again.
      state = { windowStart, stored: 0, counted: 0, written: 0, syncedAt: -Infinity };
      this.keys.set(keyId, state);
    }
    const mine = ++state.counted;
    if (now - this.flushedAt >= this.intervalMs) await this.flush(db, now);
    if (now - state.syncedAt >= this.intervalMs) await this.read(db, keyId, state, now);
    // This request's place in the window: everyone else's requests the database knows of, then this process's in order.
    const position = state.stored - state.written + mine;
    if (position <= limit) return { allowed: true };
    const retryAfterMs = state.windowStart + RATE_WINDOW_MS - now;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  /** Refreshes this process's copy of a key's total from the database. */
  private async read(db: Conn, keyId: string, state: KeyCount, now: number): Promise<void> {
    const row = await readOne<Row>(db, READ_SQL, [keyId]);
    if (row && row.windowStart >= state.windowStart) {
      state.windowStart = row.windowStart;
      state.stored = row.count;
    } else {
      // No row yet, or one from an older window that the next write starts again.
      state.stored = state.written;
    }
    state.syncedAt = now;
  }

  /** Adds every key's unwritten counts to the database in one transaction; one flush in flight per process. */
  private flush(db: Conn, now: number): Promise<void> {
    this.flushing ??= (async () => {
      const pending = [...this.keys].filter(([, state]) => state.counted > state.written);
      try {
        if (!pending.length) return;
        // One write transaction for every key, on statements prepared once (db/client.ts).
        const written = await writeTransaction(db, async (writes) => {
          const rows: { state: KeyCount; adding: number; row: Row | undefined }[] = [];
          for (const [keyId, state] of pending) {
            const adding = state.counted - state.written;
            const [row] = await writes.all<Row>(ADD_SQL, [keyId, state.windowStart, adding, keyId]);
            rows.push({ state, adding, row });
          }
          return rows;
        }, { fsync: false });
        // Only once committed: a rolled-back write leaves the counts to the next flush.
        for (const { state, adding, row } of written) {
          // No row: the key was deleted (its agent with it), so its counts are moot.
          if (row) {
            state.windowStart = row.windowStart;
            state.stored = row.count;
          }
          state.written += adding;
          state.syncedAt = now;
        }
        // Keys of windows that have ended are done with: keep the map as small as the set of busy keys.
        for (const [keyId, state] of this.keys) {
          if (state.windowStart + RATE_WINDOW_MS <= now && state.counted === state.written) this.keys.delete(keyId);
        }
      } finally {
        this.flushedAt = now;
        this.flushing = null;
      }
    })();
    return this.flushing;
  }
}

/** This process's limiter, shared by every copy of this module the bundler makes (like the transaction queues). */
const processLimiter = ((globalThis as { mnemoRateLimiter?: RateLimiter }).mnemoRateLimiter ??= new RateLimiter());

/** Counts one request with this process's limiter; see RateLimiter.count. */
export function countRequest(
  db: Conn,
  keyId: string,
  limit: number,
  now: number = Date.now(),
  limiter: RateLimiter = processLimiter,
): Promise<RateVerdict> {
  return limiter.count(db, keyId, limit, now);
}

/** Throws the API's 429 when this key has used up its window. */
export async function enforceRateLimit(db: Conn, keyId: string, limit: number): Promise<void> {
  const verdict = await countRequest(db, keyId, limit);
  if (verdict.allowed) return;
  throw apiError(
    "rate_limited",
    `Too many requests with this key. Wait ${verdict.retryAfterSeconds} s, then try again.`,
    { "Retry-After": String(verdict.retryAfterSeconds) },
  );
}
