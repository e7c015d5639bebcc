/**
 * How full a database file's WAL is, read from the WAL-index header in its `-shm` file
 * (SQLite's documented format, walformat.html: mxFrame at byte 16, the checkpoint's
 * nBackfill at byte 96, both in the machine's byte order). Reading it takes no lock and
 * runs no statement, so it costs a request thread nothing; a read that races a commit
 * may be one commit behind.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";

export type WalState = {
  /** Frames in the log since it last started over. */
  frames: number;
  /** Of those, the frames not yet copied back into the file. */
  waiting: number;
};

const header = Buffer.alloc(100);
const read = endianness() === "LE" ? (at: number) => header.readUInt32LE(at) : (at: number) => header.readUInt32BE(at);

/** The WAL of the database at `file`; empty when it has none (not in WAL mode, or no connection open). */
export function walState(file: string): WalState {
  let fd: number;
  try {
    fd = openSync(`${file}-shm`, "r");
  } catch {
    return { frames: 0, waiting: 0 };
  }
  try {
    if (readSync(fd, header, 0, header.length, 0) < header.length) return { frames: 0, waiting: 0 };
  } finally {
    closeSync(fd);
  }
  const frames = read(16);
  return { frames, waiting: Math.max(0, frames - read(96)) };
}
