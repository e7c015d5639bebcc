/**
 * Backups taken by the real CLI process while this process keeps writing: every
 * write acknowledged before the backup began is in it, and restores intact.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { facts } from "@/db/schema";
import { seedDemo } from "@/db/seed";
import { scoutHeard } from "@/lib/testing/scout-heard";
import { runMnemo } from "@/lib/testing/run-cli";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";

const dir = mkdtempSync(path.join(tmpdir(), "mnemo-backup-"));
let t: TempDb;

const mnemo = (args: string[], url: string) => runMnemo(args, { url });

beforeAll(async () => {
  t = await createTempDb();
  await seedDemo(t.db);
});
afterAll(() => {
  t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("backup and restore", () => {
  it("a backup taken under write load holds every write acknowledged before it began", async () => {
    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (n: number) => {
      // Within the 2,000 limit, and yielding between writes so timers and the child process get their turns.
      for (let i = 0; writing && i < 600; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const result = await scoutHeard(t.db, `Writer ${n} note ${i}.`, {
          scope: "channel",
          ref: "support",
          label: "#support",
          in: "support",
          from: "@ana in #support",
        });
        if (result.status === "created") acknowledged.push(result.fact.id);
      }
    };
    const writers = [writer(1), writer(2), writer(3)];
    while (acknowledged.length < 60) await new Promise((resolve) => setTimeout(resolve, 10));

    const before = [...acknowledged];
    const backupFile = path.join(dir, "under-load.db");
    const backup = await mnemo(["backup", backupFile], t.url);
    const during = acknowledged.length;
    writing = false;
    await Promise.all(writers);

    expect(backup.stderr).toBe("");
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up .* to .*under-load\.db \(\d+ facts, \d+ KiB\)\.\n$/);
    expect(during, "writes went on while the backup ran").toBeGreaterThan(before.length);
    // Both hold the password hashes: readable by their owner only.
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);

    const restoredUrl = `file:${path.join(dir, "restored", "mnemo.db")}`;
    const restore = await mnemo(["restore", "--from", backupFile], restoredUrl);
    expect(restore.stderr).toBe("");
    expect(restore.code).toBe(0);
    expect(statSync(path.join(dir, "restored", "mnemo.db")).mode & 0o777).toBe(0o600);

    const restored = await openDatabase(restoredUrl);
    try {
      const found = await restored.select({ id: facts.id }).from(facts).where(inArray(facts.id, before));
      expect(found.length).toBe(before.length);
      const check = await mnemo(["check"], restoredUrl);
      expect(check.code, check.stdout + check.stderr).toBe(0);
    } finally {
      restored.$client.close();
    }
  });

  it("restore refuses while a process has the database open, and changes nothing", async () => {
    const backupFile = path.join(dir, "plain.db");
    expect((await mnemo(["backup", "--to", backupFile], t.url)).code).toBe(0);
    const refused = await mnemo(["restore", backupFile], t.url);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `mnemo restore: The database at ${t.file} is in use. Stop every Mnemo server that uses it, then restore.`,
    );
    expect(existsSync(t.file)).toBe(true);
  });

  it("refuses a backup file that is not a database, and a backup over an existing file", async () => {
    const notes = path.join(dir, "notes.db");
    await mnemo(["backup", notes], t.url);
    const again = await mnemo(["backup", notes], t.url);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("exists already");
    const target = `file:${path.join(dir, "other", "mnemo.db")}`;
    const missing = await mnemo(["restore", path.join(dir, "nope.db")], target);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("there is no backup at");
  });
});
