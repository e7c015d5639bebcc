/**
 * For tests that call the app's own code (server actions, pages' data) rather
 * than the data layer: a freshly seeded demo file per test, which the app opens
 * through DATABASE_URL. db/index.ts keeps one client per process, so it is closed
 * and forgotten around each test.
 */
import { afterEach, beforeEach } from "vitest";
import { closeDb } from "@/db";
import { seedDemo } from "@/db/seed";
import { createTempDb, type TempDb } from "./temp-db";

/** Registers the hooks; `prepare` runs on the fresh file before the app sees it. */
export function appDemoDbForEachTest(prepare?: (t: TempDb) => Promise<void>): () => TempDb {
  let t: TempDb | undefined;
  const originalUrl = process.env.DATABASE_URL;
  beforeEach(async () => {
    t = await createTempDb();
    await seedDemo(t.db);
    await prepare?.(t);
    closeDb();
    process.env.DATABASE_URL = t.url;
  });
  afterEach(() => {
    closeDb();
    process.env.DATABASE_URL = originalUrl;
    t?.close();
    t = undefined;
  });
  return () => {
    if (!t) throw new Error("the app's database exists only inside a test");
    return t;
  };
}
