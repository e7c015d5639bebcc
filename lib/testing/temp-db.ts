/**
 * A real, migrated libSQL database file in a fresh temporary folder, one per test
 * file (`:memory:` would lose the schema on the client's next pooled connection).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

export type TempDb = { db: Db; url: string; file: string; close: () => void };

export async function createTempDb(): Promise<TempDb> {
  const dir = mkdtempSync(path.join(tmpdir(), "mnemo-test-"));
  const file = path.join(dir, "mnemo.db");
  const url = `file:${file}`;
  const db = await openDatabase(url);
  await migrateDatabase(db);
  return {
    db,
    url,
    file,
    close: () => {
      db.$client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
