/**
 * The database file on disk: where a `file:` URL points, and creating it (and its
 * folders) so that only its owner may read it.
 */
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";

/** The file path of a `file:` URL, or null for a remote database. */
export function filePathOf(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  return path.resolve(url.slice("file:".length).replace(/^\/\/(?=\/)/, ""));
}

/**
 * Creates a folder and its missing parents one level at a time. (Node's own
 * recursive mkdir spins forever where the kernel answers ENOENT for a parent that
 * exists, as under /proc; this fails with a clear error instead.)
 */
export function ensureFolder(dir: string): void {
  if (existsSync(dir)) return;
  const parent = path.dirname(dir);
  if (parent !== dir) ensureFolder(parent);
  mkdirSync(dir);
}

/** The database holds password hashes: only its owner may read it (and its -wal and -shm, which SQLite makes alike). */
export const DATABASE_FILE_MODE = 0o600;

/**
 * Creates an empty database file readable by its owner only, unless it exists:
 * SQLite would create it with the process's umask (usually 0644), and an empty
 * file is a valid empty database.
 */
export function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, "wx", DATABASE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}
