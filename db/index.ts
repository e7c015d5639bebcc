/**
 * The app's database: one client per server process, opened on first use. The
 * start script has already migrated it; tests open their own files instead.
 */
import { readConfig } from "@/lib/config";
import { connect, type Db } from "./client";

const globalForDb = globalThis as unknown as { mnemoDb?: Db };

export function getDb(): Db {
  if (!globalForDb.mnemoDb) {
    const config = readConfig();
    globalForDb.mnemoDb = connect(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  }
  return globalForDb.mnemoDb;
}

/** The process's database client if one is open; never opens one. */
export function openedDb(): Db | undefined {
  return globalForDb.mnemoDb;
}

/** Closes the process's database client, if one was opened. */
export function closeDb(): void {
  globalForDb.mnemoDb?.$client.close();
  globalForDb.mnemoDb = undefined;
}
