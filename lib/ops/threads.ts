/**
 * Starting one of the server's own threads: the agent thread (lib/api/agent-thread.ts)
 * and the checkpointer (db/checkpointer.ts). Next's build makes a thread's entry a chunk
 * of its own only where `new Worker(new URL("./entry.ts", import.meta.url))` is written
 * out at the call site, so the caller hands that in as `bundled`; run from source
 * (tests, tsx), thread-tsx.mjs compiles the entry's TypeScript on the way in.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * A new thread running `entry` (a file name beside `callerUrl`, the caller's import.meta.url), with `data` as its
 * workerData (run from source, `entry` is added to it).
 */
export function spawnThread(bundled: () => Worker, callerUrl: string, entry: string, data: Record<string, unknown> = {}): Worker {
  if (process.env.NEXT_RUNTIME) return bundled();
  const entryPath = path.join(/*turbopackIgnore: true*/ path.dirname(fileURLToPath(callerUrl)), entry);
  const loader = path.join(/*turbopackIgnore: true*/ path.dirname(fileURLToPath(import.meta.url)), "thread-tsx.mjs");
  return new Worker(loader, { workerData: { ...data, entry: entryPath } });
}
