import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseOpenError, filePathOf, openDatabase, readAll, setCheckpointPages, writeTransaction, type Writes } from "./client";
import { WAL_CHECKPOINT_PAGES } from "./kept-statements";

const dir = mkdtempSync(path.join(tmpdir(), "mnemo-client-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("openDatabase", () => {
  it("creates the missing folders of a file database and switches it to WAL", async () => {
    const db = await openDatabase(`file:${path.join(dir, "a", "b", "mnemo.db")}`);
    const mode = await db.$client.execute("PRAGMA journal_mode");
    const keys = await db.$client.execute("PRAGMA foreign_keys");
    const timeout = await db.$client.execute("PRAGMA busy_timeout");
    expect(mode.rows[0][0]).toBe("wal");
    expect(keys.rows[0][0]).toBe(1);
    expect(Number(timeout.rows[0][0])).toBeGreaterThanOrEqual(5000);
    db.$client.close();
  });

  it("creates the file and its write-ahead log readable by their owner only, whatever the umask", async () => {
    const file = path.join(dir, "private", "mnemo.db");
    const umask = process.umask(0o022);
    try {
      const db = await openDatabase(`file:${file}`);
      await db.$client.execute("CREATE TABLE notes (body TEXT)");
      await db.$client.execute("INSERT INTO notes VALUES ('a password hash lives here')");
      for (const name of [file, `${file}-wal`, `${file}-shm`]) expect(statSync(name).mode & 0o777, name).toBe(0o600);
      db.$client.close();
    } finally {
      process.umask(umask);
    }
  });

  it("leaves the mode of a database that exists already as its operator set it", async () => {
    const file = path.join(dir, "shared.db");
    writeFileSync(file, "", { mode: 0o640 });
    const db = await openDatabase(`file:${file}`);
    db.$client.close();
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  it("says which path could not be opened, and why", async () => {
    const notADatabase = path.join(dir, "notes.txt");
    writeFileSync(notADatabase, "this is not a database, just some notes\n".repeat(100));
    await expect(openDatabase(`file:${notADatabase}`)).rejects.toThrow(
      new DatabaseOpenError(notADatabase, "SQLITE_NOTADB: file is not a database"),
    );
    await expect(openDatabase(`file:${notADatabase}/mnemo.db`)).rejects.toThrow(
      `Cannot open the database at ${notADatabase}/mnemo.db:`,
    );
  });
});

describe("filePathOf", () => {
  it("resolves file URLs and leaves remote ones alone", () => {
    expect(filePathOf("file:/tmp/x.db")).toBe("/tmp/x.db");
    expect(filePathOf("file:./data/mnemo.db")).toBe(path.resolve("data/mnemo.db"));
    expect(filePathOf("libsql://db.example.turso.io")).toBeNull();
  });
});

describe("a libSQL server or Turso (DATABASE_URL=libsql://, http://, https://)", () => {
  it("is reached through the same client, and a server that does not answer is named in the error", async () => {
    // Nothing listens on loopback port 9: the same code path as an unreachable Turso database.
    await expect(openDatabase("http://127.0.0.1:9", "token")).rejects.toThrow(
      /^Cannot open the database at http:\/\/127\.0\.0\.1:9: /,
    );
  });

  it("keeps no file folder or write-ahead log for a remote URL", () => {
    expect(filePathOf("http://127.0.0.1:9")).toBeNull();
    expect(filePathOf("https://db.example.turso.io")).toBeNull();
  });
});

describe("readAll", () => {
  it("reads through kept statements, sees every committed write, and inside a transaction reads the transaction's own", async () => {
    const db = await openDatabase(`file:${path.join(dir, "reads.db")}`);
    await db.$client.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    const read = () => readAll<{ id: number; body: string }>(db, "SELECT id, body FROM notes WHERE id > ? ORDER BY id", [0]);
    expect(await read()).toEqual([]);
    await db.transaction((tx) => tx.run(sql`INSERT INTO notes (body) VALUES ('one')`));
    expect(await read()).toEqual([{ id: 1, body: "one" }]);
    await db.transaction(async (tx) => {
      await tx.run(sql`INSERT INTO notes (body) VALUES ('two')`);
      const inside = await readAll<{ id: number }>(tx, "SELECT id FROM notes WHERE body = ?", ["two"]);
      expect(inside).toEqual([{ id: 2 }]);
    });
    expect(await read()).toHaveLength(2);
    db.$client.close();
  });

  it("gives each row under its columns' names, aliases and awkward names too, with every kind of value", async () => {
    const db = await openDatabase(`file:${path.join(dir, "shapes.db")}`);
    await db.$client.execute("CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT, size REAL, data BLOB, gone TEXT)");
    await db.$client.execute("INSERT INTO things (name, size, data) VALUES ('a \"quoted\" name', 1.5, x'0102')");
    const rows = await readAll<Record<string, unknown>>(
      db,
      `SELECT id AS "the id", name, size, data, gone, name AS "it's", 7 AS constructor, 8 AS __proto__ FROM things WHERE id = ?`,
      [1],
    );
    expect(rows).toHaveLength(1);
    const { ["__proto__"]: proto, ...rest } = Object.fromEntries(Object.entries(rows[0]));
    expect(rest).toEqual({ "the id": 1, name: 'a "quoted" name', size: 1.5, data: expect.anything(), gone: null, "it's": 'a "quoted" name', constructor: 7 });
    // A column named __proto__ is a column like any other, not the row's prototype.
    expect(proto).toBe(8);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect([...(rows[0].data as Uint8Array)]).toEqual([1, 2]);
    // Each call its own objects: changing one answer's row changes no later answer.
    rows[0].name = "changed";
    expect((await readAll<{ name: string }>(db, "SELECT name FROM things WHERE id = ?", [1]))[0].name).toBe('a "quoted" name');
    db.$client.close();
  });

  it("names a `*` read's columns as they are now, after the table changed under the kept statement", async () => {
    const db = await openDatabase(`file:${path.join(dir, "altered.db")}`);
    await db.$client.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
    await db.$client.execute("INSERT INTO notes (body) VALUES ('one')");
    const read = () => readAll<Record<string, unknown>>(db, "SELECT * FROM notes", []);
    expect(await read()).toEqual([{ id: 1, body: "one" }]);
    await db.$client.execute("ALTER TABLE notes ADD COLUMN tag TEXT DEFAULT 'new'");
    expect(await read()).toEqual([{ id: 1, body: "one", tag: "new" }]);
    db.$client.close();
  });
});

describe("writeTransaction", () => {
  const notes = async () => {
    const db = await openDatabase(`file:${path.join(mkdtempSync(path.join(dir, "writes-")), "w.db")}`);
    await db.$client.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    return db;
  };
  const bodies = async (db: Awaited<ReturnType<typeof notes>>) =>
    (await readAll<{ body: string }>(db, "SELECT body FROM notes ORDER BY id", [])).map((row) => row.body);
  /** The connection's synchronous level inside a write transaction: 1 (NORMAL) skips the fsync at COMMIT in WAL mode. */
  const level = (writes: Writes) => writes.all<{ synchronous: number }>("PRAGMA synchronous", []).then(([row]) => row.synchronous);

  it("writes with the client's durability and foreign keys, and commits what it wrote", async () => {
    const db = await notes();
    const pragmas = await writeTransaction(db, async (writes) => {
      await writes.run("INSERT INTO notes (body) VALUES (?)", ["one"]);
      const [{ synchronous }] = await writes.all<{ synchronous: number }>("PRAGMA synchronous", []);
      const [{ foreign_keys }] = await writes.all<{ foreign_keys: number }>("PRAGMA foreign_keys", []);
      return { synchronous, foreign_keys };
    });
    const client = await db.$client.execute("PRAGMA synchronous");
    expect(pragmas).toEqual({ synchronous: Number(client.rows[0][0]), foreign_keys: 1 });
    expect(await bodies(db)).toEqual(["one"]);
    db.$client.close();
  });

  it("lets the write-ahead log gather ten thousand pages before copying them back into the file", async () => {
    const db = await notes();
    // 12 commits of ~250 pages each: past SQLite's default mark of 1,000 pages, short of ours.
    const page = "x".repeat(3_000);
    for (let commit = 0; commit < 12; commit++) {
      await writeTransaction(db, async (writes) => {
        for (let row = 0; row < 250; row++) await writes.run("INSERT INTO notes (body) VALUES (?)", [page]);
      });
    }
    const [{ wal_autocheckpoint: mark }] = await writeTransaction(db, (writes) =>
      writes.all<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint", []),
    );
    expect(mark).toBe(WAL_CHECKPOINT_PAGES);
    // Every frame since the file was made is still in the log: no commit checkpointed and started the log again.
    const log = Number((await db.$client.execute("PRAGMA wal_checkpoint(PASSIVE)")).rows[0].log);
    expect(log).toBeGreaterThan(3_000);
    expect(log).toBeLessThan(WAL_CHECKPOINT_PAGES);
    db.$client.close();
  });

  it("leaves the checkpoint to another connection's commits until the log has gathered the pages set", async () => {
    const mark = (db: Awaited<ReturnType<typeof notes>>) =>
      writeTransaction(db, (writes) => writes.all<{ wal_autocheckpoint: number }>("PRAGMA wal_autocheckpoint", [])).then(([row]) => row.wal_autocheckpoint);
    // Set before the write connection opens, and after.
    const early = await notes();
    setCheckpointPages(early, 2 * WAL_CHECKPOINT_PAGES);
    expect(await mark(early)).toBe(2 * WAL_CHECKPOINT_PAGES);
    const late = await notes();
    expect(await mark(late)).toBe(WAL_CHECKPOINT_PAGES);
    setCheckpointPages(late, 300);
    expect(await mark(late)).toBe(300);
    // 12 commits of ~250 pages each: the one past 300 pages copied the log back, so it holds fewer than were written.
    const page = "x".repeat(3_000);
    for (let commit = 0; commit < 12; commit++) {
      await writeTransaction(late, async (writes) => {
        for (let row = 0; row < 250; row++) await writes.run("INSERT INTO notes (body) VALUES (?)", [page]);
      });
    }
    const log = Number((await late.$client.execute("PRAGMA wal_checkpoint(PASSIVE)")).rows[0].log);
    expect(log).toBeLessThan(1_000);
    early.$client.close();
    late.$client.close();
  });

  it("a write that asks for no fsync commits without waiting for the disk, and the next write waits again", async () => {
    const db = await notes();
    const relaxed = await writeTransaction(
      db,
      async (writes) => {
        await writes.run("INSERT INTO notes (body) VALUES (?)", ["counted"]);
        return level(writes);
      },
      { fsync: false },
    );
    expect(relaxed).toBe(1); // NORMAL: in WAL mode, no fsync at COMMIT
    const after = await writeTransaction(db, level);
    const client = await db.$client.execute("PRAGMA synchronous");
    expect(after).toBe(Number(client.rows[0][0]));
    expect(after).toBeGreaterThan(1);
    expect(await bodies(db)).toEqual(["counted"]);
    db.$client.close();
  });

  it("a write that asks for no fsync but shares its COMMIT with one that waits is waited for too", async () => {
    const db = await notes();
    // Asked in the same turn of the event loop, so group commit puts them in one transaction.
    const [relaxed, durable] = await Promise.all([
      writeTransaction(db, level, { fsync: false }),
      writeTransaction(db, level),
    ]);
    expect(relaxed).toBe(durable);
    expect(durable).toBeGreaterThan(1);
    db.$client.close();
  });

  it("a write without fsync that fails leaves the next write waiting for the disk", async () => {
    const db = await notes();
    await expect(
      writeTransaction(db, (writes) => writes.run("INSERT INTO notes (body) VALUES (?)", [null]), { fsync: false }),
    ).rejects.toThrow(/NOT NULL/);
    expect(await writeTransaction(db, level)).toBeGreaterThan(1);
    expect(await bodies(db)).toEqual([]);
    db.$client.close();
  });

  it("a write asked for as the database closes fails with a clear error, and writes nothing", async () => {
    const url = `file:${path.join(mkdtempSync(path.join(dir, "closing-")), "c.db")}`;
    const db = await openDatabase(url);
    await db.$client.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    const late = writeTransaction(db, (writes) => writes.run("INSERT INTO notes (body) VALUES (?)", ["too late"]));
    db.$client.close();
    await expect(late).rejects.toThrow("The database was closed before this write could run.");
    const reopened = await openDatabase(url);
    expect(await bodies(reopened)).toEqual([]);
    reopened.$client.close();
  });

  it("a failed statement rolls back everything it wrote and lets the next transaction in", async () => {
    const db = await notes();
    await expect(
      writeTransaction(db, async (writes) => {
        await writes.run("INSERT INTO notes (body) VALUES (?)", ["kept for a moment"]);
        await writes.run("INSERT INTO notes (body) VALUES (?)", [null]); // NOT NULL
      }),
    ).rejects.toThrow(/NOT NULL/);
    await db.transaction((tx) => tx.run(sql`INSERT INTO notes (body) VALUES ('by the client')`));
    await writeTransaction(db, (writes) => writes.run("INSERT INTO notes (body) VALUES (?)", ["by the writer"]));
    expect(await bodies(db)).toEqual(["by the client", "by the writer"]);
    db.$client.close();
  });

  it("takes turns with the client's transactions in this process: every one commits, its own writes in order", async () => {
    const db = await notes();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2
          ? db.transaction(async (tx) => {
              await tx.run(sql`INSERT INTO notes (body) VALUES (${`client ${i}`})`);
            })
          : writeTransaction(db, async (writes) => {
              await writes.run("INSERT INTO notes (body) VALUES (?)", [`writer ${i}`]);
            }),
      ),
    );
    const written = await bodies(db);
    expect([...written].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `${i % 2 ? "client" : "writer"} ${i}`).sort());
    expect(written.filter((body) => body.startsWith("writer"))).toEqual(Array.from({ length: 10 }, (_, i) => `writer ${2 * i}`));
    db.$client.close();
  });

  it("transactions asked for together share a commit, each all or nothing: one that fails leaves the others' writes", async () => {
    const db = await notes();
    const results = await Promise.allSettled(
      ["first", "second", "third"].map((body) =>
        writeTransaction(db, async (writes) => {
          await writes.run("INSERT INTO notes (body) VALUES (?)", [body]);
          if (body === "second") await writes.run("INSERT INTO notes (body) VALUES (?)", [null]);
          const [{ n }] = await writes.all<{ n: number }>("SELECT count(*) AS n FROM notes", []);
          return n;
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    // Each sees the writes before it, and none of the failed one's.
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : null))).toEqual([1, null, 2]);
    expect(await bodies(db)).toEqual(["first", "third"]);
    db.$client.close();
  });

  it("inside a transaction, writes in it, and is rolled back with it", async () => {
    const db = await notes();
    await expect(
      db.transaction(async (tx) => {
        await writeTransaction(tx, (writes) => writes.run("INSERT INTO notes (body) VALUES (?)", ["inner"]));
        expect(await readAll(tx, "SELECT body FROM notes", [])).toEqual([{ body: "inner" }]);
        throw new Error("the outer transaction fails");
      }),
    ).rejects.toThrow("the outer transaction fails");
    expect(await bodies(db)).toEqual([]);
    db.$client.close();
  });
});
