/**
 * Upgrading a database of the first version: memberships that were still waiting
 * on their invite link become invitations with the same link, and stop being
 * memberships; everything else is untouched.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { migrate } from "drizzle-orm/libsql/migrator";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "./client";
import { migrateDatabase, MIGRATIONS_FOLDER } from "./migrate";

/** The last migration of the first version, before invitations belonged to an email. */
const FIRST_VERSION_LAST = "0005_recall_version_triggers";

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((undo) => undo()));

/** A database migrated only as far as the first version went. */
async function firstVersionDb(): Promise<Db> {
  const dir = mkdtempSync(path.join(tmpdir(), "mnemo-migrate-"));
  const folder = path.join(dir, "drizzle");
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === FIRST_VERSION_LAST);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  const db = await openDatabase(`file:${path.join(dir, "mnemo.db")}`);
  cleanup.push(() => {
    db.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await migrate(db, { migrationsFolder: folder });
  return db;
}

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
