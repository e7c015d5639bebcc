/**
 * Erased means gone from the file (issue #16): a fact deleted through any way the
 * app can write — the kept write connection, a client transaction, a single
 * statement, a batch, a script, the migrator — leaves no byte of its text in the
 * database or WAL file, its history, its full-text entry or its word-index postings.
 * A control deletes without secure_delete and finds the text still in the file,
 * so the check can fail.
 */
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import Database from "libsql";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { writeTransaction, type Db } from "@/db/client";
import { facts } from "@/db/schema";
import { forgetFact, purgeExpired, purgeFact, writeCorrection } from "@/lib/memory/writes";
import { scoutHeard } from "@/lib/testing/scout-heard";
import { erasePersonFacts } from "@/lib/privacy/erase-person-facts";
import { checkpoint, filesHolding, indexHasWord, tablesHolding } from "@/lib/testing/residue";
import { tempDbForTests } from "@/lib/testing/temp-db";

const t = tempDbForTests({ demo: true, each: true });

/** Keeps a person fact holding a word found nowhere else, corrected once so its history holds it twice. */
async function keepMarker(db: Db): Promise<{ id: string; marker: string }> {
  const marker = `zzqmark${randomBytes(6).toString("hex")}`;
  const result = await scoutHeard(db, `Ana's favourite tea is ${marker} oolong.`, {
    scope: "person",
    ref: "ana",
    label: "Ana Alves",
    in: "dm-ana",
    from: "@ana in a direct message",
  });
  if (result.status !== "created") throw new Error(`remember answered ${result.status}`);
  const ana = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };
  const corrected = await writeTransaction(db, (writes) =>
    writeCorrection(writes, ana, "scout", result.fact.id, result.fact.version, `Ana's favourite tea is ${marker} green tea.`, new Date().toISOString()),
  );
  if (!corrected) throw new Error("the correction changed nothing");
  // The check finds it while it is there: in the row, its history, the index, the postings, the file.
  expect(await tablesHolding(db, marker)).toEqual(
    expect.arrayContaining(["facts: body", "facts: terms", "fact_events: after", "fact_terms: term"]),
  );
  expect(await indexHasWord(db, marker)).toBe(true);
  await checkpoint(db);
  expect(filesHolding(t.file, marker)).toEqual([t.file]);
  return { id: result.fact.id, marker };
}

async function expectGone(db: Db, marker: string) {
  await checkpoint(db);
  expect(await tablesHolding(db, marker)).toEqual([]);
  expect(await indexHasWord(db, marker)).toBe(false);
  expect(filesHolding(t.file, marker)).toEqual([]);
}

const deletes: [string, (db: Db, id: string) => Promise<unknown>][] = [
  ["the kept write connection (writeTransaction)", (db, id) => writeTransaction(db, (w) => w.run("DELETE FROM facts WHERE id = ?", [id]))],
  ["a client transaction (db.transaction)", (db, id) => db.transaction((tx) => tx.delete(facts).where(eq(facts.id, id)))],
  ["a single statement through the client (db.delete)", (db, id) => db.delete(facts).where(eq(facts.id, id))],
  ["a client batch", (db, id) => db.$client.batch([{ sql: "DELETE FROM facts WHERE id = ?", args: [id] }], "write")],
  ["a script (executeMultiple)", (db, id) => db.$client.executeMultiple(`DELETE FROM facts WHERE id = '${id.replace(/'/g, "''")}'`)],
  // The migrator turns foreign keys off: no cascade, so the history goes by its own statement.
  [
    "the migrator's connection (client.migrate)",
    (db, id) =>
      db.$client.migrate([
        { sql: "DELETE FROM fact_events WHERE fact_id = ?", args: [id] },
        { sql: "DELETE FROM facts WHERE id = ?", args: [id] },
      ]),
  ],
];

describe("a deleted fact leaves no byte behind", () => {
  for (const [way, remove] of deletes) {
    it(`through ${way}`, async () => {
      const { id, marker } = await keepMarker(t.db);
      await remove(t.db, id);
      await expectGone(t.db, marker);
    });
  }

  it("through Forget permanently and the purge of the 7-day bin (writes.ts), each folding the WAL itself", async () => {
    const ana = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };
    const first = await keepMarker(t.db);
    expect(await forgetFact(t.db, ana, "scout", first.id)).toEqual({ status: "forgotten" });
    // Forgetting keeps the fact (7 days in the bin): the WAL holds its pages again.
    expect(filesHolding(t.file, first.marker)).toContain(`${t.file}-wal`);
    expect(await purgeFact(t.db, ana, "scout", first.id)).toEqual({ status: "purged" });
    // No checkpoint by the caller: the page as it was before the delete is in neither file.
    expect(filesHolding(t.file, first.marker)).toEqual([]);
    await expectGone(t.db, first.marker);
    const second = await keepMarker(t.db);
    expect(await forgetFact(t.db, ana, "scout", second.id)).toEqual({ status: "forgotten" });
    expect(await purgeExpired(t.db, new Date(Date.now() + 8 * 24 * 60 * 60 * 1000))).toBe(1);
    expect(filesHolding(t.file, second.marker)).toEqual([]);
    await expectGone(t.db, second.marker);
  });

  it("erasure folds the WAL itself: no checkpoint by the caller, and the marker is in neither file", async () => {
    const { marker } = await keepMarker(t.db);
    const erased = await erasePersonFacts(t.db, "ana", { dryRun: false, by: { id: "ana", name: "Ana Alves" } });
    expect(erased.total).toBe(2);
    expect(filesHolding(t.file, marker)).toEqual([]);
    expect(statSync(`${t.file}-wal`).size).toBe(0);
  });

  it("control: a connection without secure_delete leaves the text in the file", async () => {
    const { id, marker } = await keepMarker(t.db);
    const raw = new Database(t.file);
    expect(raw.prepare("PRAGMA secure_delete").get()).toMatchObject({ secure_delete: 0 });
    raw.prepare("DELETE FROM facts WHERE id = ?").run(id);
    raw.close();
    await checkpoint(t.db);
    expect(await tablesHolding(t.db, marker)).toEqual([]);
    expect(filesHolding(t.file, marker)).not.toEqual([]);
  });
});
