/**
 * The checkpointer thread itself (checkpointer.ts): every `everyMs` it reads how many
 * of the WAL's frames are not yet copied back into the file, and once they reach
 * `pages`, copies them back (a PASSIVE checkpoint) on a connection of its own.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import Database from "libsql";
import type { CheckpointerData, FromCheckpointer } from "./checkpointer";

const port = parentPort!;
const { file, pages, everyMs } = workerData as CheckpointerData;

/**
 * Frames in the WAL not yet in the file, from the WAL-index header in the `-shm` file
 * (SQLite's documented format, walformat.html: mxFrame at byte 16, the checkpoint's
 * nBackfill at byte 96, in the machine's byte order). Reading it takes no lock; a read
 * that races a commit is at worst one check early or late. 0 when there is none yet.
 */
const header = Buffer.alloc(100);
const read = endianness() === "LE" ? (at: number) => header.readUInt32LE(at) : (at: number) => header.readUInt32BE(at);
function framesWaiting(): number {
  let fd: number;
  try {
    fd = openSync(`${file}-shm`, "r");
  } catch {
    return 0;
  }
  try {
    if (readSync(fd, header, 0, header.length, 0) < header.length) return 0;
  } finally {
    closeSync(fd);
  }
  return Math.max(0, read(16) - read(96));
}

// PASSIVE: copies what no reader still needs, without waiting for any lock; writers go on committing meanwhile.
const connection = new Database(file);
const checkpoint = connection.prepare("PRAGMA wal_checkpoint(PASSIVE)");

const timer = setInterval(() => {
  if (framesWaiting() < pages) return;
  const started = performance.now();
  try {
    const { log, checkpointed } = checkpoint.get() as { log: number; checkpointed: number };
    port.postMessage({ log, checkpointed, ms: performance.now() - started } satisfies FromCheckpointer);
  } catch (error) {
    // Another process's checkpoint holds the file's (SQLITE_BUSY); the next check tries again.
    port.postMessage({ failed: error instanceof Error ? error.message : String(error) } satisfies FromCheckpointer);
  }
}, everyMs);

port.on("message", () => {
  // The only message is "close": nothing runs between checks, so the connection closes between statements.
  clearInterval(timer);
  connection.close();
  port.close();
});
