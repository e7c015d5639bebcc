/**
 * Running Mnemo as an operator would: servers of our own (beside the shared e2e
 * server), started with `npm start`'s script on their own database files, put
 * under load, stopped with SIGTERM, and run two at a time on one file.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { sql } from "drizzle-orm";
import { openDatabase } from "../db/client";
import { dedupeKey } from "../lib/memory/fact-text";
import { factTerms } from "../lib/memory/terms";
import { call, exited, startServer, waitUntilReady } from "./servers";

test.describe.configure({ mode: "serial" });

test("SIGTERM under load: the server drains, answers every request it accepted, then exits", async () => {
  test.setTimeout(180_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mnemo-sigterm-")), "mnemo.db");
  const server = startServer(3191, file, { MNEMO_DRAIN_SECONDS: "2" });
  await waitUntilReady(server);

  // Eight clients behind a "load balancer" that polls /api/ready and stops routing new requests on a 503.
  const answered: number[] = [];
  const failed: string[] = [];
  let routing = true;
  let sawDraining = false;
  const balancer = (async () => {
    while (routing) {
      const ready = await call(server.port, "GET", "/api/ready");
      if (!("status" in ready) || ready.status === 503) {
        sawDraining = "status" in ready;
        routing = false;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const client = async () => {
    while (routing) {
      const answer = await call(server.port, "GET", "/api/v1/recall?channel=dm-ana&asker=ana");
      if ("status" in answer) answered.push(answer.status);
      else failed.push(answer.error);
    }
  };
  const clients = Array.from({ length: 8 }, client);
  // Under load means answering: wait for the clients' first answers rather than a fixed time, which on a machine
  // also running other tests held as few as 8 of them.
  const loadedBy = Date.now() + 60_000;
  while (answered.length <= 20 && failed.length === 0 && Date.now() < loadedBy) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const answeredBeforeSignal = answered.length;
  server.process.kill("SIGTERM");
  const code = await exited(server);
  await Promise.all([balancer, ...clients]);

  expect(answeredBeforeSignal, "the server was under load").toBeGreaterThan(20);
  expect(sawDraining, "readiness said 503 while draining").toBe(true);
  expect(failed, "no request failed").toEqual([]);
  expect(answered.length).toBeGreaterThan(answeredBeforeSignal);
  expect(new Set(answered)).toEqual(new Set([200]));
  expect(code).toBe(0);
  const after = await call(server.port, "GET", "/api/health");
  expect(after).toEqual({ error: "ECONNREFUSED" });
});

test("two servers on one database file share one memory under concurrent writes", async () => {
  test.setTimeout(240_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mnemo-two-")), "mnemo.db");
  // The first start seeds the demo; the second finds it and leaves it alone.
  const first = startServer(3192, file);
  await waitUntilReady(first);
  const second = startServer(3193, file);
  await waitUntilReady(second);

  try {
    const writes = Array.from({ length: 120 }, (_, i) => {
      const server = i % 2 ? second : first;
      return call(server.port, "POST", "/api/v1/memories", {
        channel: "dm-ana",
        asker: "ana",
        fact: `Ana's note number ${i} from server ${server.port}.`,
      });
    });
    const reads = Array.from({ length: 60 }, (_, i) =>
      call(i % 2 ? second.port : first.port, "GET", "/api/v1/recall?channel=general&asker=max"),
    );
    const results = await Promise.all([...writes, ...reads]);
    const statuses = results.map((r) => ("status" in r ? r.status : r.error));
    expect(statuses.slice(0, 120).every((s) => s === 201), JSON.stringify(statuses)).toBe(true);
    expect(statuses.slice(120).every((s) => s === 200), JSON.stringify(statuses)).toBe(true);

    // Every acknowledged write is visible from both servers (facts listed newest first; recall shows ≤ 40).
    for (const server of [first, second]) {
      const answer = await call(server.port, "GET", "/api/v1/recall?channel=dm-ana&asker=ana");
      expect("status" in answer && answer.status).toBe(200);
      const { facts } = JSON.parse((answer as { body: string }).body) as { facts: { body: string }[] };
      expect(facts.filter((f) => f.body.startsWith("Ana's note number")).length).toBe(39);
    }

    // Forgets from both servers at once, racing more remembers: every answer a success, no SQLITE_BUSY.
    const kept = results
      .slice(0, 120)
      .map((r) => JSON.parse((r as { body: string }).body).memory.id as string);
    const mixed = await Promise.all([
      ...kept.slice(0, 60).map((id, i) =>
        call(i % 2 ? second.port : first.port, "DELETE", `/api/v1/memories/${id}?channel=dm-ana&asker=ana`),
      ),
      ...Array.from({ length: 60 }, (_, i) =>
        call(i % 2 ? first.port : second.port, "POST", "/api/v1/memories", {
          channel: "dm-ana",
          asker: "ana",
          fact: `Ana's second round note ${i}.`,
        }),
      ),
    ]);
    const mixedCodes = mixed.map((r) => ("status" in r ? r.status : r.error));
    expect(mixedCodes.slice(0, 60).every((c) => c === 204), JSON.stringify(mixedCodes)).toBe(true);
    expect(mixedCodes.slice(60).every((c) => c === 201), JSON.stringify(mixedCodes)).toBe(true);

    const db = await openDatabase(`file:${file}`);
    try {
      // Every event matches a change: one remember per fact kept, one forget per fact forgotten.
      const events = await db.$client.execute(`SELECT kind, count(*) AS n FROM fact_events
        WHERE fact_id IN (SELECT id FROM facts WHERE body LIKE 'Ana''s %note%') GROUP BY kind ORDER BY kind`);
      expect(events.rows.map((row) => [row.kind, Number(row.n)])).toEqual([
        ["forget", 60],
        ["remember", 180],
      ]);
      const forgotten = await db.$client.execute(
        "SELECT count(*) AS n FROM facts WHERE body LIKE 'Ana''s %note%' AND forgotten_at IS NOT NULL",
      );
      expect(Number(forgotten.rows[0].n)).toBe(60);

      // The 2,000 limit across both processes: top scout up to 1,990, then 50 writers at once.
      const live = async () =>
        Number((await db.$client.execute("SELECT count(*) AS n FROM facts WHERE agent_id = 'scout' AND forgotten_at IS NULL")).rows[0].n);
      await fillTo(db, 1990 - (await live()));
      expect(await live()).toBe(1990);
      const racing = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call(i % 2 ? second.port : first.port, "POST", "/api/v1/memories", {
            channel: "general",
            asker: "max",
            fact: `Racing fact ${i}.`,
          }),
        ),
      );
      const codes = racing.map((r) => ("status" in r ? r.status : r.error));
      expect(codes.filter((c) => c === 201).length, JSON.stringify(codes)).toBe(10);
      expect(codes.filter((c) => c === 409).length, JSON.stringify(codes)).toBe(40);
      expect(await live()).toBe(2000);
    } finally {
      db.$client.close();
    }
  } finally {
    first.process.kill("SIGTERM");
    second.process.kill("SIGTERM");
    await Promise.all([exited(first), exited(second)]);
  }
});

/** Adds `count` agent-kept channel facts to scout directly in the file, as another process would. */
async function fillTo(db: Awaited<ReturnType<typeof openDatabase>>, count: number): Promise<void> {
  const at = new Date(Date.now() - 86_400_000).toISOString();
  await db.transaction(async (tx) => {
    for (let i = 0; i < count; i++) {
      const body = `Filler fact ${i}.`;
      await tx.run(sql`INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, scope_label, body, body_key,
        source_kind, created_by, created_by_kind, pinned, created_at, updated_at, terms)
        VALUES (${`fact_filler_${i}`}, 'scout', 'acme', 'channel', 'support', '#support', ${body}, ${dedupeKey(body)},
        'message', 'scout', 'agent', 0, ${at}, ${at}, ${factTerms(body, "#support", null)})`);
    }
  });
}

test("SIGKILL in the middle of writes: after a restart the file is intact and every acknowledged write is there", async () => {
  test.setTimeout(240_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mnemo-kill-")), "mnemo.db");
  const server = startServer(3194, file, {}, { detached: true });
  await waitUntilReady(server);

  const acknowledged: string[] = [];
  let writing = true;
  const writer = async (n: number) => {
    for (let i = 0; writing; i++) {
      const answer = await call(server.port, "POST", "/api/v1/memories", {
        channel: "general",
        asker: "max",
        fact: `Crash writer ${n} fact ${i}.`,
      });
      if ("status" in answer && answer.status === 201) acknowledged.push(JSON.parse(answer.body).memory.id);
      else if ("error" in answer) return; // the server is gone
    }
  };
  const writers = Array.from({ length: 6 }, (_, n) => writer(n));
  while (acknowledged.length < 100) await new Promise((resolve) => setTimeout(resolve, 20));
  // The whole process group at once: npm start and the Next server, with no chance to clean up.
  process.kill(-server.process.pid!, "SIGKILL");
  await exited(server);
  writing = false;
  await Promise.all(writers);

  const restarted = startServer(3194, file);
  try {
    await waitUntilReady(restarted);
    const db = await openDatabase(`file:${file}`);
    try {
      const integrity = await db.$client.execute("PRAGMA integrity_check");
      expect(integrity.rows.map((row) => row[0])).toEqual(["ok"]);
      const found = await db.$client.execute({
        sql: `SELECT count(*) AS n FROM facts WHERE id IN (${acknowledged.map(() => "?").join(",")})`,
        args: acknowledged,
      });
      expect(Number(found.rows[0].n)).toBe(acknowledged.length);
    } finally {
      db.$client.close();
    }
  } finally {
    restarted.process.kill("SIGTERM");
    await exited(restarted);
  }
});
