import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "libsql";
import { afterAll, describe, expect, it } from "vitest";
import { BACKSTOP_PAGES, startCheckpointer, type Checkpointer } from "./checkpointer";
import { openDatabase, writeTransaction, type Db } from "./client";
import { WAL_CHECKPOINT_PAGES } from "./kept-statements";
import { walState } from "./wal-index";

const dir = mkdtempSync(path.join(tmpdir(), "mnemo-checkpointer-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let made = 0;
async function notes(): Promise<{ db: Db; url: string; file: string }> {
  const file = path.join(dir, `notes-${++made}.db`);
  const db = await openDatabase(`file:${file}`);
  await db.$client.execute("CREATE TABLE notes (body TEXT)");
  return { db, url: `file:${file}`, file };
}

/** The mark at which this connection's own commits checkpoint. */
async function commitMark(db: Db): Promise<number> {
  const [row] = await writeTransaction(db, (writes) => writes.all<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint", []));
  return row.wal_autocheckpoint;
}

/** `commits` commits of ~250 pages each, `apartMs` apart. */
async function write(db: Db, commits: number, apartMs = 50): Promise<void> {
  const page = "x".repeat(3_000);
  for (let commit = 0; commit < commits; commit++) {
    await writeTransaction(db, async (writes) => {
      for (let row = 0; row < 250; row++) await writes.run("INSERT INTO notes (body) VALUES (?)", [page]);
    });
    await sleep(apartMs);
  }
}

/** The next commit starts the log over from its first frame, so the log then holds little more than its ~250 frames. */
async function nextCommitStartsLogOver(db: Db, file: string): Promise<void> {
  await write(db, 1);
  expect(walState(file).frames).toBeLessThan(600);
}

async function closeBoth(db: Db, checkpointer: Checkpointer): Promise<void> {
  db.$client.close();
  await checkpointer.close();
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
    const { db, url, file } = await notes();
    // Without it, the commits checkpoint at the usual mark.
    expect(await commitMark(db)).toBe(WAL_CHECKPOINT_PAGES);
    const checkpointer = startCheckpointer(db, url, 300)!;
    expect(startCheckpointer(db, url, 300)).toBe(checkpointer);
    expect(await commitMark(db)).toBe(BACKSTOP_PAGES);

    await write(db, 12);
    await until(() => checkpointer.runs > 0);
    expect(checkpointer.last).toMatchObject({ checkpointed: expect.any(Number) });
    // It keeps up, so a commit finds every frame in the file and starts the log over from its first frame: the log
    // holds at most the last commits' frames, not the ~3,250 written (a commit alone would not have copied any back).
    await sleep(300);
    await nextCommitStartsLogOver(db, file);
    await closeBoth(db, checkpointer);
  });

  it("copies back the rest of a long log, short of the mark, so that the next commit can start it over", async () => {
    const { db, url, file } = await notes();
    const checkpointer = startCheckpointer(db, url, 600)!;
    await write(db, 1);
    // A reader whose snapshot is the first commit: a checkpoint can copy back no frame after it while it reads.
    const reader = new Database(file);
    reader.exec("BEGIN");
    reader.prepare("SELECT count(*) FROM notes").get();
    await write(db, 2);
    await until(() => checkpointer.runs > 0);
    expect(walState(file).waiting).toBeGreaterThan(400);
    expect(walState(file).waiting).toBeLessThan(600);
    // Done reading: fewer frames than the mark are left to copy, yet all are, so the next commit starts the log over.
    reader.exec("COMMIT");
    reader.close();
    await until(() => walState(file).waiting === 0);
    await nextCommitStartsLogOver(db, file);
    await closeBoth(db, checkpointer);
  });

  it("leaves a WAL short of the pages set alone", async () => {
    const { db, url, file } = await notes();
    const checkpointer = startCheckpointer(db, url, 5_000)!;
    await write(db, 4);
    await sleep(300);
    expect(checkpointer.runs).toBe(0);
    expect(walState(file)).toEqual({ frames: expect.any(Number), waiting: walState(file).frames });
    expect(walState(file).frames).toBeGreaterThan(900);
    await closeBoth(db, checkpointer);
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
