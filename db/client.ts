/**
 * The one way to open Mnemo's database. An embedded file by default; the same code
 * talks to a libSQL server or Turso when DATABASE_URL says so.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { createClient, type Client } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import type { ResultSet } from "@libsql/client";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };
/** The database or an open transaction on it: what the data layer's functions take. */
export type Conn = BaseSQLiteDatabase<"async", ResultSet, typeof schema>;

/** How long a writer waits for another writer's lock before giving up (ms). */
const BUSY_TIMEOUT_MS = 10_000;

export class DatabaseOpenError extends Error {
  constructor(where: string, reason: string) {
    super(`Cannot open the database at ${where}: ${reason}`);
    this.name = "DatabaseOpenError";
  }
}

/** The file path of a `file:` URL, or null for a remote database. */
export function filePathOf(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  return path.resolve(url.slice("file:".length).replace(/^\/\/(?=\/)/, ""));
}

/** Opens a database; for a file, creates its folder first (libSQL does not) and switches to WAL. */
export async function openDatabase(url: string, authToken?: string): Promise<Db> {
  const file = filePathOf(url);
  let client: Client;
  try {
    if (file) mkdirSync(path.dirname(file), { recursive: true });
    client = createClient({ url, authToken, timeout: BUSY_TIMEOUT_MS });
    if (file) await client.execute("PRAGMA journal_mode = WAL");
    await client.execute("SELECT 1");
  } catch (error) {
    throw new DatabaseOpenError(file ?? url, reasonOf(error));
  }
  return drizzle(client, { schema }) as Db;
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0];
}
