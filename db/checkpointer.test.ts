import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BACKSTOP_PAGES, startCheckpointer } from "./checkpointer";
import { openDatabase, writeTransaction, type Db } from "./client";
import { WAL_CHECKPOINT_PAGES } from "./kept-statements";

const dir = mkdtempSync(path.join(tmpdir(), "mnemo-checkpointer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let made = 0;
async function notes(): Promise<{ db: Db; url: string }> {
  const url = `file:${path.join(dir, `notes-${++made}.db`)}`;
  const db = await openDatabase(url);
  await db.$client.execute("CREATE TABLE notes (body TEXT)");
  return { db, url };
}

/** The mark at which this connection's own commits checkpoint. */
async function commitMark(db: Db): Promise<number> {
  const [row] = await writeTransaction(db, (writes) => writes.all<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint", []));
  return row.wal_autocheckpoint;
}

/** The WAL's frames, and how many of them are in the file (a PASSIVE checkpoint of nothing new copies nothing). */
async function wal(db: Db): Promise<{ log: number; checkpointed: number }> {
  const { rows } = await db.$client.execute("PRAGMA wal_checkpoint(PASSIVE)");
  return { log: Number(rows[0].log), checkpointed: Number(rows[0].checkpointed) };
}

/** `commits` commits of ~250 pages each, a little apart, as a server's come. */
async function write(db: Db, commits: number): Promise<void> {
  const page = "x".repeat(3_000);
  for (let commit = 0; commit < commits; commit++) {
    await writeTransaction(db, async (writes) => {
      for (let row = 0; row < 250; row++) await writes.run("INSERT INTO notes (body) VALUES (?)", [page]);
    });
    await sleep(50);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(20);
  }
}

describe("the checkpointer", () => {
  it("copies the WAL back on its own thread once it gathers the pages set, while commits leave it to the thread", async () => {
    const { db, url } = await notes();
    // Without it, the commits checkpoint at the usual mark.
    expect(await commitMark(db)).toBe(WAL_CHECKPOINT_PAGES);
    const checkpointer = startCheckpointer(db, url, 300)!;
    expect(startCheckpointer(db, url, 300)).toBe(checkpointer);
    expect(await commitMark(db)).toBe(BACKSTOP_PAGES);

    await write(db, 12);
    await until(() => checkpointer.runs > 0);
    expect(checkpointer.last).toMatchObject({ checkpointed: expect.any(Number) });
    // It keeps up: soon after the last commit, everything the log holds is in the file.
    await until(() => checkpointer.last !== null && "log" in checkpointer.last && checkpointer.last.checkpointed === checkpointer.last.log);
    const { log, checkpointed } = await wal(db);
    expect(checkpointed).toBe(log);
    // Once copied back, the log starts again from its first frame: it holds far fewer than the ~3,000 written.
    expect(log).toBeLessThan(3_000 - 300);

    db.$client.close();
    await checkpointer.close();
  });

  it("leaves a WAL short of the pages set alone", async () => {
    const { db, url } = await notes();
    const checkpointer = startCheckpointer(db, url, 5_000)!;
    await write(db, 4);
    await sleep(300);
    expect(checkpointer.runs).toBe(0);
    const { log } = await wal(db);
    expect(log).toBeGreaterThan(900);
    db.$client.close();
    await checkpointer.close();
  });

  it("ends with the database's client, and if it dies, the commits take the usual mark back", async () => {
    const closing = await notes();
    const first = startCheckpointer(closing.db, closing.url)!;
    let ended = false;
    first.worker.once("exit", () => (ended = true));
    closing.db.$client.close();
    await first.close();
    expect(ended).toBe(true);

    const { db, url } = await notes();
    const checkpointer = startCheckpointer(db, url)!;
    expect(await commitMark(db)).toBe(BACKSTOP_PAGES);
    // Ended between two checks, as a crash would; its "exit" gives the mark back.
    await checkpointer.worker.terminate();
    await sleep(20);
    expect(await commitMark(db)).toBe(WAL_CHECKPOINT_PAGES);
    db.$client.close();
  });

  it("is for a file only: a libSQL server checkpoints on its own", async () => {
    const { db } = await notes();
    expect(startCheckpointer(db, "libsql://db.example.com")).toBeNull();
    expect(await commitMark(db)).toBe(WAL_CHECKPOINT_PAGES);
    db.$client.close();
  });
});
