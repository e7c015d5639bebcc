import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "libsql";
import { afterAll, describe, expect, it } from "vitest";
import { walState } from "./wal-index";

const dir = mkdtempSync(path.join(tmpdir(), "mnemo-wal-index-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether another process can start writing to `file` right now (no waiting for the lock). */
function anotherProcessCanWrite(file: string): boolean {
  const script = `
    const Database = require("libsql");
    const db = new Database(${JSON.stringify(file)}, { timeout: 0 });
    try { db.exec("BEGIN IMMEDIATE"); db.exec("ROLLBACK"); process.stdout.write("wrote"); }
    catch (error) { process.stdout.write(String(error.code ?? error.message)); }`;
  return execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }) === "wrote";
}

describe("the WAL's state", () => {
  it("counts the frames written and the frames copied back", () => {
    const file = path.join(dir, "count.db");
    const db = new Database(file);
    db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE notes (body TEXT)");
    const before = walState(file);
    db.prepare("INSERT INTO notes (body) VALUES (?)").run("x".repeat(20_000));
    const after = walState(file);
    expect(after.frames).toBeGreaterThan(before.frames);
    expect(after.waiting).toBe(after.frames);
    db.exec("PRAGMA wal_checkpoint(PASSIVE)");
    expect(walState(file)).toEqual({ frames: after.frames, waiting: 0 });
    db.close();
  });

  it("is empty for a file with no WAL", () => {
    expect(walState(path.join(dir, "none.db"))).toEqual({ frames: 0, waiting: 0 });
  });

  // The lock is the process's: a read that closed its descriptor of -shm dropped it, and another process wrote beside us.
  it("leaves this process's write lock held: another process still cannot write", () => {
    const file = path.join(dir, "locked.db");
    const db = new Database(file);
    db.exec("PRAGMA journal_mode = WAL; CREATE TABLE notes (body TEXT)");
    expect(anotherProcessCanWrite(file)).toBe(true);
    db.exec("BEGIN IMMEDIATE");
    db.prepare("INSERT INTO notes (body) VALUES (?)").run("ours");
    for (let read = 0; read < 3; read++) expect(walState(file).frames).toBeGreaterThan(0);
    expect(anotherProcessCanWrite(file)).toBe(false);
    db.exec("COMMIT");
    expect(anotherProcessCanWrite(file)).toBe(true);
    db.close();
  });
});
