/**
 * Recall counts on a real libSQL file with the demo: nothing is written while
 * recalls are noted, one flush writes them all, counts add up across processes
 * and survive a new client, and neither a purged fact nor a failed write loses or
 * doubles a count — also when more is noted after a flush that failed halfway. (A
 * purged fact's seq given to a newer fact is the one bound: usage.ts says why.)
 */
import { describe, expect, it } from "vitest";
import { connect, readAll, readOne, type Conn } from "@/db/client";
import { DEMO_FACTS } from "@/db/seed";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { USAGE_BATCH, UsageCounter } from "./usage";

const t = tempDbForTests({ demo: true, each: true });
// Long enough that no timer flushes during a test: each test flushes when it means to.
const NEVER = 600_000;
const T0 = Date.parse("2026-05-01T12:00:00.000Z");

type UsageRow = { factSeq: number; count: number; last: string | null };

/** Each fact's written count, by its seq (fact_usage's key). */
async function usage(db: Conn = t.db): Promise<Map<number, UsageRow>> {
  const rows = await readAll<UsageRow>(
    db,
    "SELECT fact_seq AS factSeq, recalled_count AS count, last_recalled_at AS last FROM fact_usage",
    [],
  );
  return new Map(rows.map((row) => [Number(row.factSeq), { factSeq: Number(row.factSeq), count: Number(row.count), last: row.last }]));
}

async function seqOf(body: string): Promise<number> {
  const row = await readOne<{ seq: number }>(t.db, "SELECT seq FROM facts WHERE body = ?", [body]);
  if (!row) throw new Error(`no fact "${body}"`);
  return Number(row.seq);
}

/** `n` copies of a demo fact under ids copy-0001… (and their own dedupe keys), made in one statement; their seqs, ascending. */
async function copiesOf(body: string, n: number): Promise<number[]> {
  const columns = (await readAll<{ name: string }>(t.db, "SELECT name FROM pragma_table_info('facts') WHERE name <> 'seq'", [])).map(
    ({ name }) => name,
  );
  const made = { id: "'copy-' || format('%04d', n.value)", body_key: "body_key || n.value" } as Record<string, string>;
  await t.db.$client.execute({
    sql: `INSERT INTO facts (${columns.join(", ")}) SELECT ${columns.map((name) => made[name] ?? name).join(", ")}
      FROM generate_series(1, ?) n, facts WHERE facts.id = ?`,
    args: [n, (await readOne<{ id: string }>(t.db, "SELECT id FROM facts WHERE body = ?", [body]))!.id],
  });
  const rows = await readAll<{ seq: number }>(t.db, "SELECT seq FROM facts WHERE id LIKE 'copy-%' ORDER BY seq", []);
  expect(rows).toHaveLength(n);
  return rows.map(({ seq }) => Number(seq));
}

/**
 * Two and a bit batches of copies noted, and a flush refused in the second batch by the database itself (a trigger
 * on one copy; seqs in order): the first batch is written, the rest wait. The trigger stays until the test drops it.
 */
async function flushRefusedInSecondBatch(): Promise<{ total: number; copies: number[]; counter: UsageCounter }> {
  const total = USAGE_BATCH * 2 + 100;
  const copies = await copiesOf(DEMO_FACTS.refunds, total);
  const counter = new UsageCounter(NEVER);
  counter.note(t.db, copies, T0);
  await t.db.$client.execute(
    `CREATE TRIGGER refuse_one BEFORE INSERT ON fact_usage WHEN new.fact_seq = ${copies[USAGE_BATCH + 150]} BEGIN SELECT RAISE(ABORT, 'usage refused'); END`,
  );
  await expect(counter.flush()).rejects.toThrow(/usage refused/);
  return { total, copies, counter };
}

describe("recall counts", () => {
  it("are not written per recall; one flush writes each fact's count and its latest time", async () => {
    const [refunds, sso] = [await seqOf(DEMO_FACTS.refunds), await seqOf(DEMO_FACTS.sso)];
    const counter = new UsageCounter(NEVER);
    for (let i = 0; i < 14; i++) counter.note(t.db, [refunds, sso], T0 + i * 1000);
    counter.note(t.db, [sso], T0 - 60_000); // an older time never moves "last" back
    expect((await usage()).size).toBe(0);
    expect(counter.unwritten).toBe(2);

    await counter.flush();
    const rows = await usage();
    expect(rows.get(refunds)).toEqual({ factSeq: refunds, count: 14, last: new Date(T0 + 13_000).toISOString() });
    expect(rows.get(sso)).toEqual({ factSeq: sso, count: 15, last: new Date(T0 + 13_000).toISOString() });
    expect(counter.unwritten).toBe(0);

    // A second flush adds to what is there, and an empty one writes nothing.
    counter.note(t.db, [refunds], T0 + 86_400_000);
    await counter.flush();
    await counter.flush();
    expect((await usage()).get(refunds)).toEqual({ factSeq: refunds, count: 15, last: new Date(T0 + 86_400_000).toISOString() });
  });

  it("survive a restart: a new client on the same file reads exactly the recalls made", async () => {
    const seqs = [await seqOf(DEMO_FACTS.refunds), await seqOf(DEMO_FACTS.releases)];
    const counter = new UsageCounter(NEVER);
    const recalls = 37;
    for (let i = 0; i < recalls; i++) counter.note(t.db, seqs, T0 + i);
    await counter.flush();
    t.db.$client.close(); // the process stops; the test's file stays

    const reopened = connect(t.url);
    try {
      const rows = await usage(reopened);
      for (const seq of seqs) expect(rows.get(seq)?.count).toBe(recalls);
    } finally {
      reopened.$client.close();
    }
  });

  it("of more facts than one statement takes are each written exactly, whatever order they were noted in", async () => {
    // Three of the flush's statements: two full ones and one of 234 facts.
    const total = 2 * USAGE_BATCH + 234;
    const copies = await copiesOf(DEMO_FACTS.refunds, total);
    const counter = new UsageCounter(NEVER);
    // Noted newest-made first, and each k-th copy k % 3 + 1 times.
    for (const [k, id] of [...copies].reverse().entries()) for (let i = 0; i <= k % 3; i++) counter.note(t.db, [id], T0 + k);
    await counter.flush();
    const rows = await usage();
    expect(rows.size).toBe(total);
    for (const [k, id] of [...copies].reverse().entries()) {
      expect(rows.get(id)).toEqual({ factSeq: id, count: (k % 3) + 1, last: new Date(T0 + k).toISOString() });
    }
  });

  it("of a batch that fails wait, with the batches after it, for the next flush; the batches before stay written once", async () => {
    const { total, copies, counter } = await flushRefusedInSecondBatch();
    expect([...(await usage()).keys()].sort((a, b) => a - b)).toEqual(copies.slice(0, USAGE_BATCH));
    expect(counter.unwritten).toBe(total - USAGE_BATCH);

    await t.db.$client.execute("DROP TRIGGER refuse_one");
    await counter.flush();
    const rows = await usage();
    expect(rows.size).toBe(total);
    for (const id of copies) expect(rows.get(id)?.count).toBe(1);
  });

  it("noted after a flush that failed halfway land on their own facts, each written once", async () => {
    const { total, copies, counter } = await flushRefusedInSecondBatch();
    // The first batch is written; now a fact not counted before, and one still waiting, are recalled again.
    const sso = await seqOf(DEMO_FACTS.sso);
    const waiting = copies[total - 1];
    counter.note(t.db, [sso, waiting], T0 + 5_000);
    expect(counter.unwritten).toBe(total - USAGE_BATCH + 1);

    await t.db.$client.execute("DROP TRIGGER refuse_one");
    await counter.flush();
    const rows = await usage();
    expect(rows.size).toBe(total + 1);
    expect(rows.get(sso)).toEqual({ factSeq: sso, count: 1, last: new Date(T0 + 5_000).toISOString() });
    expect(rows.get(waiting)).toEqual({ factSeq: waiting, count: 2, last: new Date(T0 + 5_000).toISOString() });
    for (const seq of copies) if (seq !== waiting) expect(rows.get(seq)).toEqual({ factSeq: seq, count: 1, last: new Date(T0).toISOString() });
  });

  it("add up across processes, each with its own counter and client; the latest time wins", async () => {
    const refunds = await seqOf(DEMO_FACTS.refunds);
    const other = connect(t.url);
    try {
      const a = new UsageCounter(NEVER);
      const b = new UsageCounter(NEVER);
      for (let i = 0; i < 5; i++) a.note(t.db, [refunds], T0 + 10_000);
      for (let i = 0; i < 7; i++) b.note(other, [refunds], T0);
      await Promise.all([a.flush(), b.flush()]);
      expect((await usage()).get(refunds)).toEqual({ factSeq: refunds, count: 12, last: new Date(T0 + 10_000).toISOString() });
    } finally {
      other.$client.close();
    }
  });

  it("of a fact purged before the flush are dropped without failing the others", async () => {
    const [refunds, sso] = [await seqOf(DEMO_FACTS.refunds), await seqOf(DEMO_FACTS.sso)];
    const counter = new UsageCounter(NEVER);
    counter.note(t.db, [refunds, sso, 999_999_999], T0); // and a seq no fact ever had
    await t.db.$client.execute({ sql: "DELETE FROM facts WHERE seq = ?", args: [refunds] });

    await counter.flush();
    const rows = await usage();
    expect([...rows.keys()]).toEqual([sso]);
    // Counted once: the batch's first statement, refused by the foreign key, left nothing behind.
    expect(rows.get(sso)?.count).toBe(1);
    expect(counter.unwritten).toBe(0);
  });

  it("go with their fact when it is purged later", async () => {
    const refunds = await seqOf(DEMO_FACTS.refunds);
    const counter = new UsageCounter(NEVER);
    counter.note(t.db, [refunds], T0);
    await counter.flush();
    await t.db.$client.execute({ sql: "DELETE FROM facts WHERE seq = ?", args: [refunds] });
    expect((await usage()).size).toBe(0);
  });

  it("of a failed write are kept, merged with newer ones, and written once by the next flush", async () => {
    const refunds = await seqOf(DEMO_FACTS.refunds);
    const counter = new UsageCounter(NEVER);
    counter.note(t.db, [refunds], T0);
    counter.note(t.db, [refunds], T0 + 1);
    // A real refusal by the database, not a stand-in: a trigger that aborts every new usage row.
    await t.db.$client.execute(
      "CREATE TRIGGER refuse_usage BEFORE INSERT ON fact_usage BEGIN SELECT RAISE(ABORT, 'usage refused'); END",
    );
    await expect(counter.flush()).rejects.toThrow(/usage refused/);
    expect((await usage()).size).toBe(0);
    expect(counter.unwritten).toBe(1);

    counter.note(t.db, [refunds], T0 + 2);
    await t.db.$client.execute("DROP TRIGGER refuse_usage");
    await counter.flush();
    expect((await usage()).get(refunds)).toEqual({ factSeq: refunds, count: 3, last: new Date(T0 + 2).toISOString() });
  });

  it("noted for a database already closed are let go: a flush does not fail on them", async () => {
    const refunds = await seqOf(DEMO_FACTS.refunds);
    const other = connect(t.url);
    const counter = new UsageCounter(NEVER);
    counter.note(other, [refunds], T0);
    other.$client.close();
    await counter.flush();
    expect(counter.unwritten).toBe(0);
    expect((await usage()).size).toBe(0);
  });

  it("are written by the timer when nobody flushes", async () => {
    const refunds = await seqOf(DEMO_FACTS.refunds);
    const counter = new UsageCounter(20);
    counter.note(t.db, [refunds], T0);
    // No assertion on time: wait (as long as it takes) for the count to arrive.
    await expect.poll(async () => (await usage()).get(refunds)?.count, { timeout: 10_000 }).toBe(1);
  });
});
