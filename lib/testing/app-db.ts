/**
 * For tests that call the app's own code (server actions, route handlers, pages'
 * data) rather than the data layer: a freshly seeded demo file, which the app
 * opens through DATABASE_URL. db/index.ts keeps one client per process, so it is
 * closed whenever the file under it changes.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { closeDb } from "@/db";
import { createDemoTempDb, type TempDb } from "./temp-db";

/** The demo agents' keys, fixed so that tests can send them (the seed makes random ones otherwise). */
export const DEMO_KEYS = { scout: `mnemo_${"s".repeat(43)}`, echo: `mnemo_${"e".repeat(43)}` } as const;

/** Sets an environment variable, or removes it for undefined (assigning undefined would store "undefined"). */
function setEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

function accessor(get: () => TempDb | undefined): () => TempDb {
  return () => {
    const t = get();
    if (!t) throw new Error("the app's database exists only inside a test");
    return t;
  };
}

/** Registers the hooks; `prepare` runs on the fresh file before the app sees it. */
export function appDemoDbForEachTest(prepare?: (t: TempDb) => Promise<void>): () => TempDb {
  let t: TempDb | undefined;
  const originalUrl = process.env.DATABASE_URL;
  beforeEach(async () => {
    t = await createDemoTempDb();
    await prepare?.(t);
    closeDb();
    process.env.DATABASE_URL = t.url;
  });
  afterEach(() => {
    closeDb();
    setEnv("DATABASE_URL", originalUrl);
    t?.close();
    t = undefined;
  });
  return accessor(() => t);
}

/**
 * One demo file for all the tests of the calling file, for suites that call the
 * API many times: seeded with DEMO_KEYS, under a rate limit no test reaches
 * unless it passes its own.
 */
export function appDemoDbForFile({ rateLimit = 1_000_000 }: { rateLimit?: number } = {}): () => TempDb {
  let t: TempDb | undefined;
  const saved = { url: process.env.DATABASE_URL, limit: process.env.MNEMO_API_RATE_LIMIT };
  beforeAll(async () => {
    t = await createDemoTempDb(DEMO_KEYS);
    process.env.DATABASE_URL = t.url;
    process.env.MNEMO_API_RATE_LIMIT = String(rateLimit);
    closeDb();
  });
  afterAll(() => {
    closeDb();
    setEnv("DATABASE_URL", saved.url);
    setEnv("MNEMO_API_RATE_LIMIT", saved.limit);
    t?.close();
    t = undefined;
  });
  return accessor(() => t);
}
