/**
 * Upgrading older databases. From the first version: memberships that were still
 * waiting on their invite link become invitations with the same link, and stop
 * being memberships; everything else is untouched. From before the unique index on
 * key names (drizzle/0020, 0021): keys that would break it are made to fit, none
 * that works stops working. From before recall counts were kept by seq (drizzle/0023):
 * every count stays with its fact.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/libsql/migrator";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "./client";
import { migrateDatabase, MIGRATIONS_FOLDER } from "./migrate";
import { seedDemo } from "./seed";

/** The last migration of the first version, before invitations belonged to an email. */
const FIRST_VERSION_LAST = "0005_recall_version_triggers";

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((undo) => undo()));

/** A database migrated only as far as the migration `last` (a journal tag). */
async function migratedThrough(last: string): Promise<Db> {
  const dir = mkdtempSync(path.join(tmpdir(), "mnemo-migrate-"));
  const folder = path.join(dir, "drizzle");
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === last);
  if (at < 0) throw new Error(`no migration ${last}`);
  journal.entries = journal.entries.slice(0, at + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  const db = await openDatabase(`file:${path.join(dir, "mnemo.db")}`);
  cleanup.push(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await migrate(db, { migrationsFolder: folder });
  return db;
}

/** A database migrated only as far as the first version went. */
const firstVersionDb = () => migratedThrough(FIRST_VERSION_LAST);

describe("the invitations migration", () => {
  it("turns memberships waiting on a link into invitations with that link, and leaves the rest", async () => {
    const db = await firstVersionDb();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    await db.$client.batch(
      [
        "INSERT INTO workspaces (id, name) VALUES ('acme', 'Acme')",
        "INSERT INTO users (id, name, email, password_hash) VALUES ('olivia', 'Olivia', 'olivia@acme.test', 'h')",
        // Invited, never accepted: no password, no OAuth account.
        "INSERT INTO users (id, name, email) VALUES ('pia', 'Pia Park', 'pia@acme.test')",
        // Accepted long ago.
        "INSERT INTO users (id, name, email, password_hash) VALUES ('max', 'Max', 'max@acme.test', 'h')",
        // Made owner by the command line without a password: no invite to move.
        "INSERT INTO users (id, name, email) VALUES ('cli', 'Cli', 'cli@acme.test')",
        "INSERT INTO memberships (workspace_id, user_id, role) VALUES ('acme', 'olivia', 'owner'), ('acme', 'pia', 'owner'), ('acme', 'max', 'member'), ('acme', 'cli', 'owner')",
        `INSERT INTO invites (id, workspace_id, user_id, token_hash, invited_by, expires_at) VALUES ('i1', 'acme', 'pia', 'hash-of-pias-link', 'olivia', '${future}')`,
        `INSERT INTO invites (id, workspace_id, user_id, token_hash, invited_by, expires_at, accepted_at) VALUES ('i2', 'acme', 'max', 'hash-of-maxs-link', 'olivia', '${future}', '${future}')`,
      ],
      "write",
    );

    await migrateDatabase(db);

    const invites = await db.$client.execute("SELECT workspace_id, email, name, role, token_hash, invited_by, expires_at FROM workspace_invites");
    expect(invites.rows.map((row) => ({ ...row }))).toEqual([
      { workspace_id: "acme", email: "pia@acme.test", name: "Pia Park", role: "owner", token_hash: "hash-of-pias-link", invited_by: "olivia", expires_at: future },
    ]);
    const members = await db.$client.execute("SELECT user_id, role FROM memberships ORDER BY user_id");
    expect(members.rows.map((row) => `${row.user_id}:${row.role}`)).toEqual(["cli:owner", "max:member", "olivia:owner"]);
    const tables = await db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'invites'");
    expect(tables.rows).toEqual([]);
    const versions = await db.$client.execute("SELECT DISTINCT session_version FROM users");
    expect(versions.rows.map((row) => row.session_version)).toEqual([0]);
  });
});

describe("the key names migration", () => {
  it("revokes an expired key whose name a later key took, tells two working keys of one name apart, and then the index refuses a third", async () => {
    const db = await migratedThrough("0019_replace_intent_purge");
    const key = (id: string, agent: string, name: string, created: string, more: Record<string, string> = {}) => {
      const columns = { id, agent_id: agent, name, prefix: `mnemo_${id}`, hash: `hash-${id}`, created_at: created, ...more };
      return `INSERT INTO agent_keys (${Object.keys(columns).join(", ")}) VALUES (${Object.values(columns).map((v) => `'${v}'`).join(", ")})`;
    };
    await db.$client.batch(
      [
        "INSERT INTO workspaces (id, name) VALUES ('acme', 'Acme')",
        "INSERT INTO agents (id, workspace_id, handle, name) VALUES ('scout', 'acme', 'scout', 'Scout'), ('echo', 'acme', 'echo', 'Echo')",
        // Expired, then its name used again, as the code allowed.
        key("k1", "scout", "CI", "2024-01-01T00:00:00.000Z", { expires_at: "2024-06-01T00:00:00.000Z" }),
        key("k2", "scout", "ci", "2024-07-01T00:00:00.000Z"),
        // Two working keys of one name, as a lost race could leave them.
        key("k3", "scout", "Deploy", "2024-01-01T00:00:00.000Z"),
        key("k4", "scout", "deploy", "2024-02-01T00:00:00.000Z"),
        // A revoked key's name used again: nothing to change.
        key("k5", "scout", "Old", "2024-01-01T00:00:00.000Z", { revoked_at: "2024-01-02T00:00:00.000Z" }),
        key("k6", "scout", "Old", "2024-03-01T00:00:00.000Z"),
        // Another agent may have the name.
        key("k7", "echo", "CI", "2024-01-01T00:00:00.000Z"),
      ],
      "write",
    );

    await migrateDatabase(db);

    const keys = await db.$client.execute("SELECT id, name, revoked_at FROM agent_keys ORDER BY id");
    expect(keys.rows.map((row) => [row.id, row.name, row.revoked_at])).toEqual([
      ["k1", "CI", "2024-06-01T00:00:00.000Z"],
      ["k2", "ci", null],
      ["k3", "Deploy · mnemo_k3", null],
      ["k4", "deploy", null],
      ["k5", "Old", "2024-01-02T00:00:00.000Z"],
      ["k6", "Old", null],
      ["k7", "CI", null],
    ]);
    await expect(db.$client.execute(key("k8", "scout", "DEPLOY", "2024-04-01T00:00:00.000Z"))).rejects.toThrow(/UNIQUE/);
    await db.$client.execute(key("k9", "scout", "Old", "2024-04-01T00:00:00.000Z", { revoked_at: "2024-04-02T00:00:00.000Z" }));
  });
});

describe("the recall counts migration", () => {
  it("moves each fact's count to its seq, and the counts still go with their fact when it is purged", async () => {
    const db = await migratedThrough("0022_fact_line_size");
    await seedDemo(db);
    const { rows: two } = await db.$client.execute("SELECT id, body FROM facts ORDER BY id LIMIT 2");
    await db.$client.batch(
      [
        { sql: "INSERT INTO fact_usage (fact_id, recalled_count, last_recalled_at) VALUES (?, 14, '2026-05-01T12:00:00.000Z')", args: [two[0].id] },
        { sql: "INSERT INTO fact_usage (fact_id, recalled_count, last_recalled_at) VALUES (?, 2, '2026-04-01T08:00:00.000Z')", args: [two[1].id] },
      ],
      "write",
    );

    await migrateDatabase(db);

    const counts = async () =>
      (
        await db.$client.execute(
          "SELECT facts.body, u.recalled_count, u.last_recalled_at FROM fact_usage u JOIN facts ON facts.seq = u.fact_seq ORDER BY facts.id",
        )
      ).rows.map((row) => [row.body, row.recalled_count, row.last_recalled_at]);
    expect(await counts()).toEqual([
      [two[0].body, 14, "2026-05-01T12:00:00.000Z"],
      [two[1].body, 2, "2026-04-01T08:00:00.000Z"],
    ]);
    expect((await db.$client.execute("PRAGMA foreign_key_check")).rows).toEqual([]);
    await db.$client.execute({ sql: "DELETE FROM facts WHERE id = ?", args: [two[0].id] });
    expect(await counts()).toEqual([[two[1].body, 2, "2026-04-01T08:00:00.000Z"]]);
    expect((await db.$client.execute("SELECT count(*) AS n FROM fact_usage")).rows[0].n).toBe(1);
  });
});
