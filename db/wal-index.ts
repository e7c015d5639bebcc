/**
 * How full a database file's WAL is, read from the WAL-index header in its `-shm` file
 * (SQLite's documented format, walformat.html: mxFrame at byte 16, the checkpoint's
 * nBackfill at byte 96, both in the machine's byte order). Reading it takes no lock and
 * runs no statement, so it costs a request thread nothing; a read that races a commit
 * may be one commit behind.
 *
 * The `-shm` file is opened once per thread and never closed. SQLite's locks on it are
 * POSIX advisory locks, which belong to the process: closing any descriptor of the file
 * drops every lock the process holds on it, its connections' too (howtocorrupt.html,
 * §2.2). Opening and closing it on each read once let another process take the write
 * lock beside a commit of ours, and both wrote the same frames: a second server lost
 * every write it had acknowledged (e2e/ops.spec.ts, "two servers on one database file").
 */
import { openSync, readSync } from "node:fs";
import { endianness } from "node:os";

export type WalState = {
  /** Frames in the log since it last started over. */
  frames: number;
  /** Of those, the frames not yet copied back into the file. */
  waiting: number;
};

const header = Buffer.alloc(100);
const read = endianness() === "LE" ? (at: number) => header.readUInt32LE(at) : (at: number) => header.readUInt32BE(at);
/** This thread's descriptor of each `-shm` read so far: kept for the process's life, never closed (above). */
const descriptors = new Map<string, number>();

function descriptorOf(file: string): number | null {
  let fd = descriptors.get(file);
  if (fd === undefined) {
    try {
      fd = openSync(`${file}-shm`, "r");
    } catch {
      return null; // not in WAL mode, or no connection has opened it yet: asked again next time
    }
    descriptors.set(file, fd);
  }
  return fd;
}

/**
 * The WAL of the database at `file`; empty when it has none. Call it only while a
 * connection of this process holds the file open, so the `-shm` read is the one in use.
 */
export function walState(file: string): WalState {
  const fd = descriptorOf(file);
  if (fd === null || readSync(fd, header, 0, header.length, 0) < header.length) return { frames: 0, waiting: 0 };
  const frames = read(16);
  return { frames, waiting: Math.max(0, frames - read(96)) };
}
