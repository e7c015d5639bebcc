/**
 * Too many requests per agent key → 429 with Retry-After. A fixed window counted
 * in the database (one row per key), so the limit holds across every server
 * process that shares it — but not written on every request: a write transaction
 * per call cost more than the recall it guarded.
 *
 * Each process counts a key's requests in memory and adds them to the key's row
 * in one small write at most every FLUSH_INTERVAL_MS (and at once for the first
 * request of a key in a window). It decides with the database total it read at
 * its last write plus its own requests since. The tolerance: with P processes
 * serving one key, the key can go over the limit by at most what the other
 * processes admitted in their last FLUSH_INTERVAL_MS — a few requests at most in
 * practice, against a limit counted per minute. A single process is exact.
 */
import { sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { apiRateLimits } from "@/db/schema";
import { apiError } from "./errors";

/** The window; the limit per window is MNEMO_API_RATE_LIMIT (lib/config.ts). */
export const RATE_WINDOW_MS = 60_000;
/** How often a process adds its counts for one key to the database, at most. */
export const FLUSH_INTERVAL_MS = 250;

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

type KeyCount = {
  windowStart: number;
  /** The key's total in the database as of this process's last write. */
  stored: number;
  /** Requests this process counted in the window, and how many of them it has written. */
  counted: number;
  written: number;
  flushedAt: number;
  flushing: Promise<void> | null;
};

/** One process's counts; the app keeps one per process (see `processLimiter`), tests make several. */
export class RateLimiter {
  private readonly keys = new Map<string, KeyCount>();

  constructor(private readonly flushIntervalMs: number = FLUSH_INTERVAL_MS) {}

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
      state = { windowStart, stored: 0, counted: 0, written: 0, flushedAt: -Infinity, flushing: null };
      this.keys.set(keyId, state);
    }
    const mine = ++state.counted;
    if (now - state.flushedAt >= this.flushIntervalMs) await this.flush(db, keyId, state, now);
    // This request's place in the window: everyone else's requests the database knows of, then this process's in order.
    const position = state.stored - state.written + mine;
    if (position <= limit) return { allowed: true };
    const retryAfterMs = state.windowStart + RATE_WINDOW_MS - now;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  /** Adds this process's unwritten counts to the key's row and reads back the total; one write in flight per key. */
  private flush(db: Conn, keyId: string, state: KeyCount, now: number): Promise<void> {
    state.flushing ??= (async () => {
      const adding = state.counted - state.written;
      try {
        // A transaction so the write takes its turn with the file's other writers (db/client.ts).
        const [row] = await db.transaction((tx) =>
          tx
            .insert(apiRateLimits)
            .values({ keyId, windowStart: state.windowStart, count: adding })
            .onConflictDoUpdate({
              target: apiRateLimits.keyId,
              set: {
                count: sql`CASE WHEN excluded.window_start > ${apiRateLimits.windowStart} THEN excluded.count ELSE ${apiRateLimits.count} + excluded.count END`,
                windowStart: sql`max(${apiRateLimits.windowStart}, excluded.window_start)`,
              },
            })
            .returning({ count: apiRateLimits.count, windowStart: apiRateLimits.windowStart }),
        );
        state.windowStart = row.windowStart;
        state.stored = row.count;
        state.written += adding;
        state.flushedAt = now;
      } finally {
        state.flushing = null;
      }
    })();
    return state.flushing;
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
    429,
    "rate_limited",
    `Too many requests with this key. Wait ${verdict.retryAfterSeconds} s, then try again.`,
    { "Retry-After": String(verdict.retryAfterSeconds) },
  );
}
