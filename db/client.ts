/**
 * The one way to open Mnemo's database, and what the rest of the app imports for it.
 * An embedded file by default; the same code talks to a libSQL server or Turso when
 * DATABASE_URL says so. The pieces: files.ts (the file on disk), reader.ts and
 * writer.ts (the one way to read and to write with plain SQL, on kept statements for
 * a file), write-queue.ts (transactions on a file take turns).
 */
import { chmodSync, existsSync } from "node:fs";
import path from "node:path";
import { createClient, type Client, type ResultSet } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { createPrivateFile, DATABASE_FILE_MODE, ensureFolder, filePathOf } from "./files";
import { BUSY_TIMEOUT_MS } from "./kept-statements";
import { keepReader } from "./reader";
import * as schema from "./schema";
import { zeroFreedPages } from "./secure-delete";
import { takeTurnsForTransactions } from "./write-queue";
import { keepWriter } from "./writer";

export { createPrivateFile, DATABASE_FILE_MODE, ensureFolder, filePathOf } from "./files";
export { allOf, type SqlArg, type SqlPart } from "./plain-sql";
export { readAll, readOne } from "./reader";
export { foldWal, setCheckpointPages, writeTransaction, type Writes } from "./writer";
export { WAL_CHECKPOINT_PAGES } from "./kept-statements";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };
/** The database or an open transaction on it: what the data layer's functions take. */
export type Conn = BaseSQLiteDatabase<"async", ResultSet, typeof schema>;

export class DatabaseOpenError extends Error {
  constructor(where: string, reason: string) {
    super(`Cannot open the database at ${where}: ${reason}`);
    this.name = "DatabaseOpenError";
  }
}

/** A client and its Drizzle wrapper, without touching the database yet. For a file, creates its folder and the file first (libSQL would make it readable by all). */
export function connect(url: string, authToken?: string): Db {
  const file = filePathOf(url);
  if (file) {
    ensureFolder(path.dirname(file));
    createPrivateFile(file);
  }
  const client = createClient({ url, authToken, timeout: BUSY_TIMEOUT_MS });
  if (file) {
    // First, so a transaction's turn (below) covers the pragma run after its BEGIN.
    zeroFreedPages(client);
    takeTurnsForTransactions(client, file);
    keepReader(client, file);
    keepWriter(client, file);
  }
  return drizzle(client, { schema }) as Db;
}

/** Opens a database and proves it answers; for a file, switches it to WAL (kept in the file). */
export async function openDatabase(url: string, authToken?: string): Promise<Db> {
  const file = filePathOf(url);
  try {
    const created = file !== null && !existsSync(/*turbopackIgnore: true*/ file);
    const db = connect(url, authToken);
    if (file) await db.$client.execute("PRAGMA journal_mode = WAL");
    await db.$client.execute("SELECT 1");
    // SQLite gives them the database's own mode; this holds even where it might not.
    if (created) {
      for (const sibling of [`${file}-wal`, `${file}-shm`]) {
        if (existsSync(/*turbopackIgnore: true*/ sibling)) chmodSync(/*turbopackIgnore: true*/ sibling, DATABASE_FILE_MODE);
      }
    }
    return db;
  } catch (error) {
    throw new DatabaseOpenError(file ?? url, reasonOf(error));
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0];
}
