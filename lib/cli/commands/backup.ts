/**
 * backup and restore of the embedded database file. A backup is SQLite's
 * `VACUUM INTO`: one read transaction, so it is a consistent copy of a running
 * database while writers carry on. A restore puts a checked backup in place of a
 * database no process has open, keeping the old file beside it.
 */
import { chmodSync, copyFileSync, existsSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { checkDatabase } from "@/db/check";
import { connect, createPrivateFile, DATABASE_FILE_MODE, ensureFolder, filePathOf, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { CliError, UsageError, type Command } from "../command";

function embeddedFile(databaseUrl: string): string {
  const file = filePathOf(databaseUrl);
  if (!file) {
    throw new CliError(
      "backup and restore work on an embedded database file; a libSQL server or Turso keeps its own backups.",
    );
  }
  return file;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0];
}

/** Checks a database file the way `mnemo check` does; throws with the first problem. */
async function assertHealthy(file: string, what: string): Promise<void> {
  const client = connect(`file:${file}`).$client;
  try {
    const results = await checkDatabase(client).catch((error: unknown) => {
      throw new CliError(`${what} at ${file} is not a Mnemo database: ${firstLine(error)}`);
    });
    const failed = results.find((result) => !result.ok);
    if (failed) throw new CliError(`${what} at ${file} failed the ${failed.name} check: ${failed.detail}.`);
  } finally {
    client.close();
  }
}

export const backupCommand: Command = {
  name: "backup",
  summary:
    "Copies the embedded database, consistently, to a new file: safe while Mnemo is running and writing. " +
    "The copy is checked (integrity and foreign keys) before the command says it is done.",
  flags: { to: { type: "string", value: "file", description: "Where to write the backup. Must not exist yet.", required: true } },
  positional: "to",
  notes: ["Example: npm run mnemo -- backup backups/mnemo-2026-11-30.db"],
  async run({ io, databaseUrl }, values) {
    const source = embeddedFile(databaseUrl);
    if (!existsSync(source)) throw new CliError(`There is no database file at ${source}.`);
    const target = path.resolve(String(values.to));
    if (existsSync(target)) throw new UsageError(`${target} exists already; choose a new file for the backup.`);
    if (!existsSync(path.dirname(target))) throw new UsageError(`the folder ${path.dirname(target)} does not exist.`);

    const client = connect(databaseUrl).$client;
    try {
      // A backup holds the password hashes too: made private before a byte is written (VACUUM INTO fills an empty file).
      createPrivateFile(target);
      await client.execute({ sql: "VACUUM INTO ?", args: [target] });
    } catch (error) {
      rmSync(target, { force: true });
      throw new CliError(`Could not write the backup to ${target}: ${firstLine(error)}`);
    } finally {
      client.close();
    }
    await assertHealthy(target, "The backup");
    const facts = await countFacts(target);
    const size = Math.round(statSync(target).size / 1024);
    io.out(`Backed up ${source} to ${target} (${facts} ${facts === 1 ? "fact" : "facts"}, ${size} KiB).`);
  },
};

async function countFacts(file: string): Promise<number> {
  const client = connect(`file:${file}`).$client;
  try {
    const result = await client.execute("SELECT count(*) AS n FROM facts");
    return Number(result.rows[0]?.n ?? 0);
  } finally {
    client.close();
  }
}

/**
 * Whether any other connection has the database open: leaving WAL mode needs the
 * file to itself, so it fails while a server (or anyone else) is connected.
 */
async function assertNotInUse(file: string): Promise<void> {
  const client = connect(`file:${file}`).$client;
  try {
    const result = await client.execute("PRAGMA journal_mode = DELETE");
    if (String(result.rows[0]?.[0]).toLowerCase() !== "delete") throw new Error("still in WAL mode");
  } catch {
    throw new CliError(`The database at ${file} is in use. Stop every Mnemo server that uses it, then restore.`);
  } finally {
    client.close();
  }
}

export const restoreCommand: Command = {
  name: "restore",
  summary:
    "Replaces the embedded database with a backup, after checking the backup. Stop Mnemo first: the " +
    "command refuses while any process has the database open. The replaced file is kept beside it.",
  flags: { from: { type: "string", value: "file", description: "The backup to restore.", required: true } },
  positional: "from",
  notes: ["Example: npm run mnemo -- restore backups/mnemo-2026-11-30.db"],
  async run({ io, databaseUrl }, values) {
    const target = embeddedFile(databaseUrl);
    const backup = path.resolve(String(values.from));
    if (!existsSync(backup)) throw new UsageError(`there is no backup at ${backup}.`);
    if (backup === target) throw new UsageError("the backup is the database itself.");
    await assertHealthy(backup, "The backup");

    let kept: string | null = null;
    if (existsSync(target)) {
      await assertNotInUse(target);
      kept = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      renameSync(target, kept);
    }
    // A stale write-ahead log must never be replayed onto the restored file.
    for (const suffix of ["-wal", "-shm"]) rmSync(`${target}${suffix}`, { force: true });
    ensureFolder(path.dirname(target));
    const incoming = `${target}.restoring`;
    copyFileSync(backup, incoming);
    chmodSync(incoming, DATABASE_FILE_MODE);
    renameSync(incoming, target);

    // Bring an older backup up to this version's schema, and switch it back to WAL.
    const db = await openDatabase(databaseUrl);
    try {
      await migrateDatabase(db);
    } finally {
      db.$client.close();
    }
    await assertHealthy(target, "The restored database");
    const facts = await countFacts(target);
    io.out(`Restored ${backup} to ${target} (${facts} ${facts === 1 ? "fact" : "facts"}).`);
    if (kept) io.out(`The database it replaced is kept at ${kept}.`);
  },
};
