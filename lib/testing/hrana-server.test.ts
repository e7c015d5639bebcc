/**
 * The libSQL stand-in (hrana-server.ts) is only worth the remote-mode suite if it
 * behaves as sqld does where Mnemo could notice (issue #19): values, streams and
 * transactions held across requests, expiry, errors, auth — and if breaking one of
 * those details breaks a data-layer write. Then the proof: two app
 * processes on one stand-in keep the 2,000 limit exact under a burst, and each
 * recalls the other's writes next. Each test starts its own stand-in on a fresh file.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { createClient, type Client } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { checkDatabase } from "@/db/check";
import { openDatabase, writeTransaction, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { seedDemo } from "@/db/seed";
import { backupCommand } from "@/lib/cli/commands/backup";
import { MAX_FACTS } from "@/lib/memory/rules";
import { readiness, EXPECTED_MIGRATIONS } from "@/lib/ops/readiness";
import { DEMO_KEYS } from "./app-db";
import { startHranaServer, type HranaServer, type HranaServerOptions } from "./hrana-server";
import { keepAgentWrites } from "./write-policies";

const ROOT = path.resolve(import.meta.dirname, "../..");
let dir: string;
let file: string;
const opened: { close(): unknown }[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mnemo-hrana-"));
  file = path.join(dir, "mnemo.db");
});
afterEach(async () => {
  for (const thing of opened.splice(0).reverse()) await thing.close();
  rmSync(dir, { recursive: true, force: true });
});

async function server(options: Partial<HranaServerOptions> = {}): Promise<HranaServer> {
  const started = await startHranaServer({ file, ...options });
  opened.push(started);
  return started;
}
function client(url: string, authToken?: string): Client {
  const made = createClient({ url, authToken });
  opened.push(made);
  return made;
}
async function database(url: string): Promise<Db> {
  const db = await openDatabase(url);
  opened.push(db.$client);
  return db;
}
const pipeline = (url: string, body: unknown) =>
  fetch(`${url}/v2/pipeline`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the stand-in speaks Hrana 2 over HTTP as sqld does", () => {
  it("sends values as the spec says: integers as strings, floats as numbers, text, blobs in base64, null; a JS number binds as REAL", async () => {
    const { url } = await server();
    const answer = await pipeline(url, {
      baton: null,
      requests: [
        {
          type: "execute",
          stmt: {
            sql: "SELECT ? AS i, ? AS f, ? AS t, ? AS b, ? AS n, 9007199254740993 AS big, 2.0 AS two",
            args: [
              { type: "integer", value: "42" },
              { type: "float", value: 1.5 },
              { type: "text", value: "é" },
              { type: "blob", base64: "AQI=" },
              { type: "null" },
            ],
          },
        },
        { type: "close" },
      ],
    });
    const body = await answer.json();
    expect(body.baton).toBeNull();
    expect(body.results[0].response.result.rows[0]).toEqual([
      { type: "integer", value: "42" },
      { type: "float", value: 1.5 },
      { type: "text", value: "é" },
      { type: "blob", base64: "AQI=" },
      { type: "null" },
      { type: "integer", value: "9007199254740993" },
      { type: "float", value: 2 },
    ]);
    // @libsql/client sends every JS number as a float; sqld binds it as REAL, and so must the stand-in.
    const c = client(url);
    expect((await c.execute({ sql: "SELECT typeof(?) AS a, typeof(?) AS b", args: [5, 5n] })).rows[0]).toMatchObject({ a: "real", b: "integer" });
  });

  it("holds a transaction across requests on its stream: unseen by others until COMMIT, gone with ROLLBACK or close", async () => {
    const stand = await server();
    const a = client(stand.url);
    const b = client(stand.url);
    await a.execute("CREATE TABLE t (x INTEGER)");
    const tx = await a.transaction("write");
    await tx.execute("INSERT INTO t VALUES (1)");
    await tx.execute("INSERT INTO t VALUES (2)");
    expect((await tx.execute("SELECT count(*) AS n FROM t")).rows[0].n).toBe(2);
    expect((await b.execute("SELECT count(*) AS n FROM t")).rows[0].n).toBe(0);
    expect(stand.openStreams()).toBe(1);
    await tx.commit();
    expect(stand.openStreams()).toBe(0);
    expect((await b.execute("SELECT count(*) AS n FROM t")).rows[0].n).toBe(2);

    const undone = await a.transaction("write");
    await undone.execute("INSERT INTO t VALUES (3)");
    await undone.rollback();
    const dropped = await a.transaction("write");
    await dropped.execute("INSERT INTO t VALUES (4)");
    dropped.close();
    await expect.poll(() => stand.openStreams()).toBe(0);
    expect((await b.execute("SELECT x FROM t ORDER BY x")).rows.map((row) => row.x)).toEqual([1, 2]);
  });

  it("makes a second writer wait for the first one's COMMIT, then lets it in", async () => {
    const { url } = await server();
    const a = client(url);
    const b = client(url);
    await a.execute("CREATE TABLE t (x INTEGER)");
    const first = await a.transaction("write");
    await first.execute("INSERT INTO t VALUES (1)");
    const second = (async () => {
      const tx = await b.transaction("write");
      const seen = (await tx.execute("SELECT count(*) AS n FROM t")).rows[0].n;
      await tx.execute("INSERT INTO t VALUES (2)");
      await tx.commit();
      return seen;
    })();
    await first.commit();
    // BEGIN IMMEDIATE waited for the lock, so the second transaction began after the first one's COMMIT.
    expect(await second).toBe(1);
  });

  it("expires an idle stream, rolling back its transaction, and says so as sqld does", async () => {
    const stand = await server({ idleMs: 50 });
    const c = client(stand.url);
    await c.execute("CREATE TABLE t (x INTEGER)");
    const tx = await c.transaction("write");
    await tx.execute("INSERT INTO t VALUES (1)");
    await expect.poll(() => stand.openStreams(), { timeout: 5_000 }).toBe(0);
    await expect(tx.execute("INSERT INTO t VALUES (2)")).rejects.toMatchObject({ code: "STREAM_EXPIRED" });
    expect((await c.execute("SELECT count(*) AS n FROM t")).rows[0].n).toBe(0);
  });

  it("answers errors in the protocol's shapes: a failing statement in the results, a bad baton or a request it does not serve with 400", async () => {
    const { url } = await server();
    const c = client(url);
    await expect(c.execute("SELECT * FROM nowhere")).rejects.toMatchObject({ code: "SQLITE_ERROR", message: expect.stringContaining("no such table: nowhere") });

    const first = await (await pipeline(url, { baton: null, requests: [{ type: "execute", stmt: { sql: "SELECT 1" } }] })).json();
    expect(typeof first.baton).toBe("string");
    const again = await pipeline(url, { baton: first.baton, requests: [] });
    expect(again.status).toBe(200);
    const reused = await pipeline(url, { baton: first.baton, requests: [] });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toMatch(/baton/);
    const forged = await pipeline(url, { baton: `${first.baton}x`, requests: [] });
    expect(forged.status).toBe(400);

    for (const type of ["get_autocommit", "describe", "open_cursor"]) {
      const refused = await pipeline(url, { baton: null, requests: [{ type, sql: "SELECT 1" }] });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("content-type")).toBe("text/plain");
    }
    expect((await fetch(`${url}/v3-protobuf`)).status).toBe(404);
  });

  it("refuses a client without the auth token with 401, and serves one with it", async () => {
    const { url } = await server({ authToken: "s3cret-token" });
    await expect(client(url).execute("SELECT 1")).rejects.toMatchObject({ code: "SERVER_ERROR", message: expect.stringContaining("401") });
    await expect(client(url, "wrong").execute("SELECT 1")).rejects.toMatchObject({ code: "SERVER_ERROR" });
    expect((await client(url, "s3cret-token").execute("SELECT 1 AS one")).rows[0].one).toBe(1);
  });
});

describe("breaking one protocol detail breaks the data layer", () => {
  // Two writes in one writeTransaction, the way every data-layer write runs on a remote database.
  const writeBoth = (db: Db) =>
    writeTransaction(db, async (writes) => {
      await writes.run("INSERT INTO t (x) VALUES (?)", [1]);
      await writes.run("INSERT INTO t (x) VALUES (?)", [2]);
    });
  const kept = async (db: Db) => (await db.$client.execute("SELECT x FROM t ORDER BY x")).rows.map((row) => row.x);

  it("all or nothing holds on a faithful stand-in, and fails where a transaction is dropped between requests", async () => {
    const faithful = await database((await server()).url);
    await faithful.$client.execute("CREATE TABLE t (x INTEGER)");
    await writeBoth(faithful);
    expect(await kept(faithful)).toEqual([1, 2]);

    rmSync(file, { force: true });
    const broken = await database((await server({ dropTransactionsBetweenRequests: true })).url);
    await broken.$client.execute("CREATE TABLE t (x INTEGER)");
    // The second write ran outside any transaction, so COMMIT finds none, and half the work stays behind.
    await expect(writeBoth(broken)).rejects.toThrow();
    expect(await kept(broken)).toEqual([2]);
  });
});

describe("Mnemo over the stand-in", () => {
  it("migrates, then passes mnemo check and readiness; backup refuses a remote database with a clear message", async () => {
    const { url } = await server();
    const db = await database(url);
    await migrateDatabase(db);
    // Again: migrations are idempotent over the protocol too.
    await migrateDatabase(db);
    expect((await checkDatabase(db.$client)).filter((result) => !result.ok)).toEqual([]);
    expect(await readiness(db)).toEqual({ ok: true, migrations: EXPECTED_MIGRATIONS });
    const io = { out: () => undefined, err: () => undefined };
    await expect(
      backupCommand.run({ io, databaseUrl: url } as unknown as Parameters<typeof backupCommand.run>[0], { to: path.join(dir, "copy.db") }),
    ).rejects.toThrow("backup and restore work on an embedded database file; a libSQL server or Turso keeps its own backups.");
  });

  it("two app processes keep the 2,000 limit exact under a concurrent burst, and each recalls the other's writes next", async () => {
    const stand = await server();
    const db = await database(stand.url);
    await migrateDatabase(db);
    await seedDemo(db, DEMO_KEYS);
    await keepAgentWrites(db);
    const { rows } = await db.$client.execute({ sql: "SELECT count(*) AS n FROM facts WHERE agent_id = 'scout' AND forgotten_at IS NULL", args: [] });
    const room = 10;
    const filler = MAX_FACTS - room - Number(rows[0].n);
    const at = new Date().toISOString();
    for (let from = 0; from < filler; from += 500) {
      await db.$client.batch(
        Array.from({ length: Math.min(500, filler - from) }, (_, i) => ({
          sql: `INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, scope_label, body, body_key, source_kind, source_channel_id, created_by, created_by_kind, created_at, updated_at)
                VALUES (?, 'scout', 'acme', 'channel', 'support', '#support', ?, ?, 'message', 'support', 'scout', 'agent', ?, ?)`,
          args: [`fact_fill_${from + i}`, `Filler fact ${from + i}.`, `filler fact ${from + i}`, at, at],
        })),
        "write",
      );
    }

    const one = appProcess(stand.url);
    const two = appProcess(stand.url);
    // Each process recalls once first, so each keeps an answer that the other's writes must make stale.
    const before = await Promise.all([one.ask("recall"), two.ask("recall")]);
    expect(before[0]).toEqual(before[1]);
    const [a, b] = await Promise.all([one.ask("burst 15 One"), two.ask("burst 15 Two")]);
    const outcomes = [...(a.outcomes as unknown[]), ...(b.outcomes as unknown[])];
    expect(outcomes.filter((o) => o === 201), JSON.stringify(outcomes)).toHaveLength(room);
    expect(outcomes.filter((o) => o === "409 memory_full"), JSON.stringify(outcomes)).toHaveLength(30 - room);
    const live = await db.$client.execute("SELECT count(*) AS n FROM facts WHERE agent_id = 'scout' AND forgotten_at IS NULL");
    expect(Number(live.rows[0].n)).toBe(MAX_FACTS);

    const kept = await db.$client.execute("SELECT body FROM facts WHERE body LIKE 'One fact %' OR body LIKE 'Two fact %'");
    const keptBodies = kept.rows.map((row) => String(row.body)).sort();
    const recalled = await Promise.all([one.ask("recall"), two.ask("recall")]);
    for (const { bodies } of recalled) {
      // Every fact either process kept, the other's included, is in each one's next recall.
      expect((bodies as string[]).filter((body) => /^(One|Two) fact /.test(body)).sort()).toEqual(keptBodies);
    }
    expect(keptBodies.some((body) => body.startsWith("One"))).toBe(a.outcomes.includes(201));
    expect(keptBodies.some((body) => body.startsWith("Two"))).toBe(b.outcomes.includes(201));
  });
});

/** A child process running hrana-server-burst.ts against `url`: ask it a line, get its JSON answer. */
function appProcess(url: string): { ask(line: string): Promise<Record<string, unknown> & { outcomes: unknown[] }> } {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ["--import", "tsx", "lib/testing/hrana-server-burst.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, BURST_AGENT_KEY: DEMO_KEYS.scout, NODE_OPTIONS: "", LOG_LEVEL: "warn" },
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  opened.push({ close: () => child.kill() });
  return {
    async ask(line) {
      child.stdin.write(`${line}\n`);
      const next = await lines.next();
      if (next.done) throw new Error(`the app process ended: ${stderr}`);
      return JSON.parse(next.value);
    },
  };
}
