import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "libsql";
import { afterAll, describe, expect, it } from "vitest";
import { foldWal, openDatabase, readAll, writeTransaction } from "./client";
import { isBusy, retryWhileBusy } from "./lock-wait";

const dir = mkdtempSync(path.join(tmpdir(), "mnemo-lock-wait-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const busy = () => Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY", rawCode: 5 });

describe("a write that finds the lock taken", () => {
  it("waits for it while the thread goes on, and writes once it is let go", async () => {
    const file = path.join(dir, "held.db");
    const db = await openDatabase(`file:${file}`);
    await db.$client.execute("CREATE TABLE notes (body TEXT)");
    // Another connection, on this very thread, as the agent thread's or another server's would be elsewhere.
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    other.prepare("INSERT INTO notes (body) VALUES (?)").run("theirs");

    let written = false;
    const write = writeTransaction(db, (writes) => writes.run("INSERT INTO notes (body) VALUES (?)", ["ours"])).then(() => {
      written = true;
    });
    // A thread asleep in SQLite's busy handler runs no timer: this one would never fire, and the holder below never
    // commit, until the busy timeout failed the write.
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    await sleep(150);
    expect(written).toBe(false);
    expect(ticks).toBeGreaterThan(5);
    other.exec("COMMIT");
    await write;
    clearInterval(ticking);

    expect((await readAll<{ body: string }>(db, "SELECT body FROM notes ORDER BY rowid", [])).map((row) => row.body)).toEqual([
      "theirs",
      "ours",
    ]);
    other.close();
    db.$client.close();
  });
});

describe("retryWhileBusy", () => {
  it("asks again after each refusal until it is let through", async () => {
    let asked = 0;
    const answer = await retryWhileBusy(
      () => {
        if (++asked < 4) throw busy();
        return "in";
      },
      1_000,
      () => sleep(1),
    );
    expect([answer, asked]).toEqual(["in", 4]);
  });

  it("gives up after the timeout with SQLite's own refusal", async () => {
    const started = Date.now();
    const refusal = busy();
    await expect(retryWhileBusy(() => { throw refusal; }, 60, () => sleep(5))).rejects.toBe(refusal);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it("does not wait out any other failure, a stale snapshot's included", async () => {
    const snapshot = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY_SNAPSHOT", rawCode: 517 });
    for (const failure of [new Error("no such table: notes"), snapshot]) {
      let asked = 0;
      await expect(retryWhileBusy(() => { asked++; throw failure; }, 1_000, () => sleep(1))).rejects.toBe(failure);
      expect(asked).toBe(1);
    }
    expect([isBusy(busy()), isBusy(snapshot), isBusy(undefined)]).toEqual([true, false, false]);
  });
});

describe("folding the WAL (an erasure's last step) while another connection holds the log", () => {
  /** A file whose WAL holds writes a reader on another connection has not seen: its snapshot is older. */
  async function heldLog(name: string) {
    const file = path.join(dir, name);
    const db = await openDatabase(`file:${file}`);
    await db.$client.execute("CREATE TABLE notes (body TEXT)");
    await writeTransaction(db, (writes) => writes.run("INSERT INTO notes (body) VALUES (?)", ["before"]));
    const reader = new Database(file);
    reader.exec("BEGIN");
    expect(reader.prepare("SELECT count(*) AS n FROM notes").get()).toMatchObject({ n: 1 });
    await writeTransaction(db, (writes) => writes.run("INSERT INTO notes (body) VALUES (?)", ["after"]));
    const walBytes = () => statSync(`${file}-wal`).size;
    expect(walBytes()).toBeGreaterThan(0);
    return { db, reader, walBytes };
  }

  it("tries again while the thread goes on, and folds it once the reader lets go", async () => {
    const { db, reader, walBytes } = await heldLog("fold.db");
    let folded: boolean | undefined;
    const fold = foldWal(db).then((done) => (folded = done));
    // In SQLite's busy handler the thread would sleep: no timer, and the reader below never let go, for 10 s.
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    await sleep(150);
    expect(folded).toBeUndefined();
    expect(ticks).toBeGreaterThan(5);
    reader.exec("COMMIT");
    expect(await fold).toBe(true);
    clearInterval(ticking);
    expect(walBytes()).toBe(0);
    reader.close();
    db.$client.close();
  });

  it("gives up after its timeout, answering false, the thread going on meanwhile", async () => {
    const { db, reader, walBytes } = await heldLog("fold-gives-up.db");
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    const started = Date.now();
    expect(await foldWal(db, 200)).toBe(false);
    clearInterval(ticking);
    expect(Date.now() - started).toBeGreaterThanOrEqual(195);
    expect(ticks).toBeGreaterThan(10);
    expect(walBytes()).toBeGreaterThan(0);
    reader.exec("COMMIT");
    reader.close();
    db.$client.close();
  });
});
