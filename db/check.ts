/**
 * Is this database healthy? Five questions `mnemo check` asks without changing
 * anything: is every one of drizzle/'s migrations applied (by name and content,
 * not just by count), is every trigger they create still there, does SQLite's
 * own integrity check pass, does every foreign key point at a row, and does
 * every fact have its terms (ranked recall's postings). (GET /api/ready asks the quick question only —
 * lib/ops/readiness.ts counts migrations — as it runs on every probe.)
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@libsql/client";
import { MIGRATIONS_FOLDER } from "./migrate";

export type CheckResult = { name: string; ok: boolean; detail: string };

type JournalEntry = { tag: string; when: number };

/** The migrations the code expects, as drizzle's migrator records them: the file's SHA-256 and the journal's time. */
function expectedMigrations(folder: string): { tag: string; when: number; hash: string }[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ tag, when }) => ({
    tag,
    when,
    hash: createHash("sha256").update(readFileSync(path.join(folder, `${tag}.sql`))).digest("hex"),
  }));
}

/**
 * Compares drizzle's `__drizzle_migrations` with drizzle/meta/_journal.json.
 * Drizzle only applies migrations newer than the last one recorded, so a gap
 * in the middle would never heal by itself: every journal entry must be there.
 */
export async function checkMigrations(client: Client, folder = MIGRATIONS_FOLDER): Promise<CheckResult> {
  const name = "migrations";
  const expected = expectedMigrations(folder);
  const table = await client.execute(
    "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '__drizzle_migrations'",
  );
  if (!table.rows.length) {
    return { name, ok: false, detail: `none applied of ${expected.length} (run npm run db:migrate)` };
  }
  const { rows } = await client.execute("SELECT hash, created_at FROM __drizzle_migrations");
  const applied = rows.map((row) => ({ hash: String(row.hash), when: Number(row.created_at) }));
  const missing = expected.filter((m) => !applied.some((a) => a.when === m.when));
  const changed = expected.filter((m) => applied.some((a) => a.when === m.when && a.hash !== m.hash));
  const unknown = applied.filter((a) => !expected.some((m) => m.when === a.when));
  const problems = [
    missing.length ? `not applied: ${missing.map((m) => m.tag).join(", ")}` : null,
    changed.length ? `applied from a different file: ${changed.map((m) => m.tag).join(", ")}` : null,
    unknown.length ? `${unknown.length} applied migration(s) this code does not know (a newer version wrote here)` : null,
  ].filter((p): p is string => p !== null);
  if (problems.length) return { name, ok: false, detail: problems.join("; ") };
  return { name, ok: true, detail: `all ${expected.length} applied` };
}

/** The triggers the migrations create and do not drop later, read in the order they were written. */
function expectedTriggers(folder: string): string[] {
  const names = new Set<string>();
  for (const { tag } of expectedMigrations(folder)) {
    const text = readFileSync(path.join(folder, `${tag}.sql`), "utf8");
    for (const [, verb, name] of text.matchAll(/\b(CREATE|DROP) TRIGGER\s+(?:IF (?:NOT )?EXISTS\s+)?[`"]?(\w+)/gi)) {
      if (verb.toUpperCase() === "CREATE") names.add(name);
      else names.delete(name);
    }
  }
  return [...names];
}

/**
 * Every trigger the migrations made. Recall's kept answers are only as fresh as
 * the version triggers (drizzle/0005) and search as the full-text ones (0001),
 * and a table rebuilt by a later migration silently loses its triggers.
 */
export async function checkTriggers(client: Client, folder = MIGRATIONS_FOLDER): Promise<CheckResult> {
  const expected = expectedTriggers(folder);
  const { rows } = await client.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'");
  const present = new Set(rows.map((row) => String(row[0])));
  const missing = expected.filter((name) => !present.has(name));
  if (!missing.length) return { name: "triggers", ok: true, detail: `all ${expected.length} present` };
  return { name: "triggers", ok: false, detail: `missing: ${missing.join(", ")}` };
}

/** SQLite's `PRAGMA integrity_check`: "ok", or the first problems it found. */
export async function checkIntegrity(client: Client): Promise<CheckResult> {
  const { rows } = await client.execute("PRAGMA integrity_check(20)");
  const lines = rows.map((row) => String(row[0]));
  const ok = lines.length === 1 && lines[0] === "ok";
  return { name: "integrity", ok, detail: ok ? "ok" : lines.slice(0, 5).join("; ") };
}

/** `PRAGMA foreign_key_check`: rows whose foreign key names a row that does not exist. */
export async function checkForeignKeys(client: Client): Promise<CheckResult> {
  const { rows } = await client.execute("PRAGMA foreign_key_check");
  if (!rows.length) return { name: "foreign keys", ok: true, detail: "ok" };
  const tables = [...new Set(rows.map((row) => String(row[0])))];
  return { name: "foreign keys", ok: false, detail: `${rows.length} broken reference(s) in ${tables.join(", ")}` };
}

/**
 * Facts without their terms (drizzle/0015), so without postings: ranked recall cannot find them by their
 * words until the next start fills them (db/migrate.ts). Read off the index of those missing: free.
 */
export async function checkFactTerms(client: Client): Promise<CheckResult> {
  const { rows } = await client.execute("SELECT count(*) AS n FROM facts WHERE terms IS NULL");
  const missing = Number(rows[0]?.n ?? 0);
  if (!missing) return { name: "fact terms", ok: true, detail: "every fact has its terms" };
  return { name: "fact terms", ok: false, detail: `${missing} fact(s) without terms: filled on the next start` };
}

/** Every check, in order. A check that cannot even run counts as failed, with its reason. */
export async function checkDatabase(client: Client, folder = MIGRATIONS_FOLDER): Promise<CheckResult[]> {
  const checks: [string, () => Promise<CheckResult>][] = [
    ["migrations", () => checkMigrations(client, folder)],
    ["triggers", () => checkTriggers(client, folder)],
    ["integrity", () => checkIntegrity(client)],
    ["foreign keys", () => checkForeignKeys(client)],
    ["fact terms", () => checkFactTerms(client)],
  ];
  const results: CheckResult[] = [];
  for (const [name, run] of checks) {
    try {
      results.push(await run());
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
      results.push({ name, ok: false, detail: reason });
    }
  }
  return results;
}
