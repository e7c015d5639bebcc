/**
 * The checkpointer thread itself (checkpointer.ts): every `everyMs` it reads how many
 * of the WAL's frames are not yet copied back into the file (wal-index.ts), and once
 * they reach `pages`, copies them back (a PASSIVE checkpoint) on a connection of its own.
 */
import { parentPort, workerData } from "node:worker_threads";
import Database from "libsql";
import type { CheckpointerData, FromCheckpointer } from "./checkpointer";
import { walState } from "./wal-index";

const port = parentPort!;
const { file, pages, everyMs } = workerData as CheckpointerData;

// PASSIVE: copies what no reader still needs, without waiting for any lock; writers go on committing meanwhile.
const connection = new Database(file);
const checkpoint = connection.prepare("PRAGMA wal_checkpoint(PASSIVE)");

const timer = setInterval(() => {
  // Past the mark; or the log is long and what was committed during the last checkpoint is not in the file yet. SQLite
  // starts the log over from its first frame only at a commit that finds every frame in the file — which a checkpoint
  // inside a COMMIT, holding the write lock, always left, and one beside the writers often does not — so the rest is
  // copied too (a few pages), and the log does not grow on past the mark.
  const { frames, waiting } = walState(file);
  if (waiting < pages && (frames < pages || waiting === 0)) return;
  const started = performance.now();
  try {
    const { log, checkpointed } = checkpoint.get() as { log: number; checkpointed: number };
    port.postMessage({ log, checkpointed, ms: performance.now() - started } satisfies FromCheckpointer);
  } catch (error) {
    // An I/O error, say (another process's checkpoint is no error: the answer's `busy`); the next check tries again.
    port.postMessage({ failed: error instanceof Error ? error.message : String(error) } satisfies FromCheckpointer);
  }
}, everyMs);

port.on("message", () => {
  // The only message is "close": nothing runs between checks, so the connection closes between statements.
  clearInterval(timer);
  connection.close();
  port.close();
});
