/**
 * A real, migrated libSQL database file in a fresh temporary folder, one per test
 * file (`:memory:` would lose the schema on the client's next pooled connection).
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, inject } from "vitest";
import { openDatabase, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDemo } from "@/db/seed";
import { agentKeyPrefix, hashAgentKey } from "@/lib/api/agent-keys";

export type TempDb = { db: Db; url: string; file: string; close: () => void };

/** Set by vitest.remote.config.ts: every test database is then reached over Hrana (issue #19). */
export const REMOTE_TESTS = process.env.MNEMO_TEST_DATABASE === "remote";

/**
 * A fresh file behind its own libSQL stand-in (lib/testing/hrana-server-setup.ts);
 * `file` is that file, for tests that read it. The file is a copy of one migrated
 * (and for `demo`, seeded) over the protocol when the run began, so it is not
 * migrated again here.
 */
async function createRemoteTempDb(template: "migrated" | "demo"): Promise<TempDb> {
  const control = inject("hranaControl");
  const made = await fetch(`${control}/databases?template=${template}`, { method: "POST" });
  if (!made.ok) throw new Error(`The stand-in could not make a database: ${await made.text()}`);
  const { id, url, file } = (await made.json()) as { id: string; url: string; file: string };
  const db = await openDatabase(url);
  return {
    db,
    url,
    file,
    close: () => {
      db.$client.close();
      // The stand-in's process removes the file; anything left goes when the run ends.
      void fetch(`${control}/databases/${id}`, { method: "DELETE" }).catch(() => undefined);
    },
  };
}

/**
 * This test process's starting files, made on first use in the run's folder
 * (temp-db-setup.ts): migrating and seeding cost a few hundred milliseconds of
 * commits and password hashing, copying a file almost nothing. Made as a test
 * database would be (the demo seeded with random keys, as seedDemo makes them),
 * then checkpointed and closed so the whole database is in the one file.
 */
const templates = new Map<"migrated" | "demo", Promise<string>>();

function template(kind: "migrated" | "demo", parent: string): Promise<string> {
  let made = templates.get(kind);
  if (!made) {
    made = (async () => {
      const dir = mkdtempSync(path.join(parent, `${process.pid}-`));
      const file = path.join(dir, `${kind}.db`);
      if (kind === "demo") copyFileSync(await template("migrated", parent), file);
      const db = await openDatabase(`file:${file}`);
      if (kind === "migrated") await migrateDatabase(db);
      else await seedDemo(db);
      await db.$client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
      db.$client.close();
      return file;
    })();
    templates.set(kind, made);
  }
  return made;
}

async function createLocalTempDb(kind: "migrated" | "demo"): Promise<TempDb> {
  const dir = mkdtempSync(path.join(tmpdir(), "mnemo-test-"));
  const file = path.join(dir, "mnemo.db");
  const url = `file:${file}`;
  // Outside a run with the setup (no folder for templates), migrated in place as before.
  const parent = inject("tempDbTemplates");
  if (parent) copyFileSync(await template(kind, parent), file);
  const db = await openDatabase(url);
  if (!parent) {
    await migrateDatabase(db);
    if (kind === "demo") await seedDemo(db);
  }
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

export async function createTempDb(): Promise<TempDb> {
  return REMOTE_TESTS ? createRemoteTempDb("migrated") : createLocalTempDb("migrated");
}

/** A fresh database with the demo seeded (db/seed.ts), its agents' keys `keys` where given. */
export async function createDemoTempDb(keys: { scout?: string; echo?: string } = {}): Promise<TempDb> {
  const t = REMOTE_TESTS ? await createRemoteTempDb("demo") : await createLocalTempDb("demo");
  // The template's keys are random; named ones are stored as seedDemo stores them.
  const named = Object.entries(keys).filter((entry): entry is [string, string] => typeof entry[1] === "string");
  if (named.length) {
    await t.db.$client.batch(
      named.map(([agent, key]) => ({
        sql: "UPDATE agent_keys SET prefix = ?, hash = ? WHERE id = ?",
        args: [agentKeyPrefix(key), hashAgentKey(key), `key_demo_${agent}`],
      })),
      "write",
    );
  }
  return t;
}

/**
 * Registers the hooks for a test file's database: one migrated file for the whole
 * file, or a fresh one for each test (`each`), seeded with the demo when asked.
 * The answer reads through to the current file, so tests write `t.db` as before.
 */
export function tempDbForTests({ demo = false, each = false }: { demo?: boolean; each?: boolean } = {}): Omit<TempDb, "close"> {
  let current: TempDb | undefined;
  const open = async () => {
    current = demo ? await createDemoTempDb() : await createTempDb();
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
