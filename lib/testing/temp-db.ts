/**
 * A real, migrated libSQL database file in a fresh temporary folder, one per test
 * file (`:memory:` would lose the schema on the client's next pooled connection).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDemo } from "@/db/seed";

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

/**
 * Registers the hooks for a test file's database: one migrated file for the whole
 * file, or a fresh one for each test (`each`), seeded with the demo when asked.
 * The answer reads through to the current file, so tests write `t.db` as before.
 */
export function tempDbForTests({ demo = false, each = false }: { demo?: boolean; each?: boolean } = {}): Omit<TempDb, "close"> {
  let current: TempDb | undefined;
  const open = async () => {
    current = await createTempDb();
    if (demo) await seedDemo(current.db);
  };
  const close = () => {
    current?.close();
    current = undefined;
  };
  if (each) {
    beforeEach(open);
    afterEach(close);
  } else {
    beforeAll(open);
    afterAll(close);
  }
  const now = (): TempDb => {
    if (!current) throw new Error("the test database exists only while the file's tests run");
    return current;
  };
  return {
    get db() {
      return now().db;
    },
    get url() {
      return now().url;
    },
    get file() {
      return now().file;
    },
  };
}
