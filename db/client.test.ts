import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseOpenError, filePathOf, openDatabase, readAll } from "./client";

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
});
