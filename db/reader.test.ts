/**
 * readWide against readAll, on a real database (a file here, the libSQL stand-in in
 * `npm run test:remote`): the same rows, values and order for fact rows, whatever
 * their text holds — quotes, backslashes, newlines, controls, emoji, other scripts — and
 * for integers up to 2^53, NULLs and an empty result. And readOne: readAll's first row,
 * never a snapshot older than the last commit.
 */
import { describe, expect, it } from "vitest";
import { FACT_COLUMNS, FACT_FIELDS } from "@/lib/memory/fact-columns";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { connect, readAll } from "./client";
import { readOne, readWide, watchReads } from "./reader";

const t = tempDbForTests({ demo: true });

const HOSTILE = [
  `He said "ship it" \\ then left.`,
  "Line one\nline two\r\nline three\ttabbed",
  // No NUL: the driver's own rows end a text at one (readWide keeps it whole), and cleanFact never stores one.
  "Controls \u0001 inside, and \u001f too",
  "Emoji 😀, 日本語, ñ, and \u2028 a line separator",
  "</script><script>alert(1)</script>",
  "[1, 2] {\"json\": true} null",
];

describe("readWide", () => {
  it("reads fact rows as readAll does, text of every kind, NULLs and integers included, in the statement's order", async () => {
    for (const [i, body] of HOSTILE.entries()) {
      await t.db.$client.execute({
        sql: `INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, scope_label, body, body_key, source_kind,
            source_label, created_by, created_by_kind, pinned, version, created_at, updated_at, line_size)
          VALUES (?, 'scout', 'acme', 'workspace', '', NULL, ?, ?, 'message', ?, 'scout', 'agent', ?, ?, ?, ?, ?)`,
        args: [`hostile_${i}`, body, `key ${i}`, i % 2 ? body : null, i % 2, 2 ** 31 + i, `2026-01-0${i + 1}T00:00:00.000Z`, `2026-01-0${i + 1}T00:00:00.000Z`, 2 ** 52 + i],
      });
    }
    const text = `SELECT ${FACT_COLUMNS}, facts.seq AS seq FROM facts WHERE facts.agent_id = ? ORDER BY facts.updated_at DESC, facts.id`;
    const plain = await readAll<Record<string, unknown>>(t.db, text, ["scout"]);
    const wide = await readWide<Record<string, unknown>>(t.db, [...FACT_FIELDS, "seq"], text, ["scout"]);
    expect(plain.length).toBeGreaterThan(HOSTILE.length);
    expect(wide).toEqual(plain);
    expect(wide.map((row) => row.body)).toEqual(expect.arrayContaining(HOSTILE));
    expect(await readWide(t.db, [...FACT_FIELDS, "seq"], text, ["nobody"])).toEqual([]);
  });
});

describe("readOne", () => {
  it("answers readAll's first row, or undefined when there is none, and is watched like readAll", async () => {
    const text = "SELECT id, body, pinned FROM facts WHERE agent_id = ? ORDER BY id";
    const [first] = await readAll<Record<string, unknown>>(t.db, text, ["scout"]);
    const seen: string[] = [];
    const stop = watchReads(t.db, (statement) => seen.push(statement));
    try {
      expect(await readOne(t.db, text, ["scout"])).toEqual(first);
      expect(await readOne(t.db, text, ["nobody"])).toBeUndefined();
    } finally {
      stop();
    }
    expect(seen).toEqual([text, text]);
  });

  it("runs a statement with its own arguments after the same statement failed", async () => {
    const text = "SELECT json(?) AS v";
    await expect(readOne(t.db, text, ["{not json"])).rejects.toThrow(/malformed JSON/);
    expect(await readOne(t.db, text, ['{"a":1}'])).toEqual({ v: '{"a":1}' });
    await expect(readAll(t.db, text, ["{not json"])).rejects.toThrow(/malformed JSON/);
    expect(await readAll(t.db, text, ['{"b":2}'])).toEqual([{ v: '{"b":2}' }]);
  });

  it("sees what another connection committed since its last read, with the same statement and with another", async () => {
    const count = "SELECT count(*) AS n FROM facts WHERE agent_id = 'scout'";
    const newest = "SELECT id FROM facts WHERE agent_id = 'scout' ORDER BY seq DESC";
    const before = (await readOne<{ n: number }>(t.db, count, []))!.n;
    await readOne(t.db, newest, []);
    // Another process's write: a connection of its own, not this one's writer.
    const other = connect(t.url);
    try {
      await other.$client.execute(`INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, body, body_key, source_kind,
          source_label, created_by, created_by_kind, pinned, version, created_at, updated_at)
        VALUES ('after_read', 'scout', 'acme', 'workspace', '', 'Written after a read.', 'written after a read', 'message',
          'x', 'scout', 'agent', 0, 1, '2026-01-09T00:00:00.000Z', '2026-01-09T00:00:00.000Z')`);
    } finally {
      other.$client.close();
    }
    expect(await readOne<{ id: string }>(t.db, newest, [])).toEqual({ id: "after_read" });
    expect((await readOne<{ n: number }>(t.db, count, []))!.n).toBe(before + 1);
  });
});
