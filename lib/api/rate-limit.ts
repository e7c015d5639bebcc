/**
 * Too many requests per agent key → 429 with Retry-After. A fixed window counted
 * in the database (one row per key, one statement per request), so the limit holds
 * across every server process that shares the database.
 */
import { sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { apiRateLimits } from "@/db/schema";
import { apiError } from "./errors";

/** The window; the limit per window is MNEMO_API_RATE_LIMIT (lib/config.ts). */
export const RATE_WINDOW_MS = 60_000;

export type RateVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Counts one request for `keyId` and says whether it is within `limit`. A request
 * in a newer window starts the count again; one from a server whose clock lags
 * counts in the current window.
 */
export async function countRequest(
  db: Conn,
  keyId: string,
  limit: number,
  now: number = Date.now(),
): Promise<RateVerdict> {
  const windowStart = now - (now % RATE_WINDOW_MS);
  // A transaction so the write takes its turn with the file's other writers (db/client.ts).
  const [row] = await db.transaction((tx) =>
    tx
      .insert(apiRateLimits)
      .values({ keyId, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: apiRateLimits.keyId,
        set: {
          count: sql`CASE WHEN excluded.window_start > ${apiRateLimits.windowStart} THEN 1 ELSE ${apiRateLimits.count} + 1 END`,
          windowStart: sql`max(${apiRateLimits.windowStart}, excluded.window_start)`,
        },
      })
      .returning({ count: apiRateLimits.count, windowStart: apiRateLimits.windowStart }),
  );
  if (row.count <= limit) return { allowed: true };
  const retryAfterMs = row.windowStart + RATE_WINDOW_MS - now;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
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
