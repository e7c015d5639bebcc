/**
 * Waiting for another connection's write lock without putting the thread to sleep.
 *
 * SQLite's own busy handler waits inside the call that found the lock taken, sleeping
 * 1, 2, 5, 10, 20… ms between tries, and the driver is synchronous: the whole thread
 * sleeps with it. On the serving thread that was every request in flight — 54 ms once,
 * a rate-limit flush behind the agent thread's recall counts (BENCHMARKS.md, the
 * twenty-third session). So a connection asks for the lock with no busy timeout, and a
 * refusal is asked again from the event loop, which serves requests in between.
 */

/** SQLite's "the lock is taken" (SQLITE_BUSY, 5) only: waiting cannot cure a stale snapshot (BUSY_SNAPSHOT, 517). */
export function isBusy(error: unknown): boolean {
  const { code, rawCode } = (error ?? {}) as { code?: unknown; rawCode?: unknown };
  return rawCode === 5 || (code === "SQLITE_BUSY" && rawCode === undefined);
}

/** A refusal SQLite answers with a result rather than an error (a checkpoint's busy = 1), as the error isBusy knows. */
export function busyRefusal(message: string): Error {
  return Object.assign(new Error(message), { code: "SQLITE_BUSY", rawCode: 5 });
}

/**
 * Runs `attempt` until it does not fail with SQLITE_BUSY, awaiting `pause()` between
 * tries; after `timeoutMs` the last refusal is thrown, as a busy timeout's would be.
 * An attempt may itself wait (for this thread's write turn, say) before it asks.
 */
export async function retryWhileBusy<T>(attempt: () => T | Promise<T>, timeoutMs: number, pause: () => Promise<void>): Promise<T> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= giveUpAt) throw error;
    }
    await pause();
  }
}
