/**
 * The operator CLI run as an operator runs it: a real `node --import tsx
 * lib/cli/mnemo.ts …` process against a temporary database file, checking what
 * it prints, its exit code, and what it changed in the database.
 */
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { agentKeys, auditEvents, factEvents, facts, memberships, signInFailures, users, workspaces } from "@/db/schema";
import { seedDemo } from "@/db/seed";
import { verifyPassword } from "@/lib/auth/password";
import { hashAgentKey } from "@/lib/api/agent-keys";
import { runMnemo, type CliRun } from "@/lib/testing/run-cli";
import { tempDbForTests } from "@/lib/testing/temp-db";

const ROOT = path.resolve(import.meta.dirname, "../..");

type Run = CliRun;

/** Runs the real CLI in its own process, as `npm run mnemo -- …` does. */
const mnemo = runMnemo;

/** A user error is one line on stderr, never a stack trace. */
function expectOneLine(run: Run, pattern: RegExp) {
  const lines = run.stderr.trim().split("\n");
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

/** The password printed on its own indented line after "Password for …". */
function printedPassword(stdout: string): string {
  const match = /Password for .*\n {2}(\S+)\n/.exec(stdout);
  if (!match) throw new Error(`no password in:\n${stdout}`);
  return match[1];
}

const t = tempDbForTests({ each: true });

async function audit(workspaceId: string) {
  return t.db
    .select({ actorId: auditEvents.actorId, action: auditEvents.action, summary: auditEvents.summary })
    .from(auditEvents)
    .where(eq(auditEvents.workspaceId, workspaceId))
    .orderBy(auditEvents.id);
}

async function passwordHashOf(email: string): Promise<string | null> {
  const [row] = await t.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, email));
  return row?.hash ?? null;
}

describe("help", () => {
  it("lists every command with --help, and exits 2 with the help on stderr when no command is given", async () => {
    const help = await mnemo(["--help"], { url: t.url });
    expect(help.code).toBe(0);
    for (const name of ["create-workspace", "reset-password", "create-key", "revoke-key", "list-keys", "purge", "check"]) {
      expect(help.stdout).toContain(`  ${name}`);
    }
    const bare = await mnemo([], { url: t.url });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain("Usage: npm run mnemo -- <command> [options]");
  });

  it("answers the same through tsx, as `npm run mnemo` starts it, as from the bundle the other tests run", async () => {
    for (const args of [["--help"], ["frob"], ["check"]]) {
      const [bundled, source] = await Promise.all([mnemo(args, { url: t.url }), mnemo(args, { url: t.url, viaTsx: true })]);
      expect(source).toEqual(bundled);
    }
  });

  it.each([
    ["create-workspace", "--name <name> --owner-email <email> --owner-name <name>"],
    ["reset-password", "--email <email>"],
    ["create-key", "--workspace <id> --agent <handle> --name <name>"],
    ["revoke-key", "--workspace <id> --key <id or prefix>"],
    ["list-keys", "--workspace <id> --agent <handle>"],
    ["purge", ""],
    ["check", ""],
  ])("%s --help shows its usage and options", async (name, usage) => {
    const run = await mnemo([name, "--help"], { url: t.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: npm run mnemo -- ${name}${usage ? ` ${usage}` : ""}`);
    expect(run.stdout).toContain("--help");
    expect((await mnemo(["help", name], { url: t.url })).stdout).toBe(run.stdout);
  });
});

describe("usage errors exit 2 with one line saying what to fix", () => {
  it.each([
    [["frob"], /^mnemo: there is no command "frob"\. Run `npm run mnemo -- --help`/],
    [["create-key", "--workspace", "acme", "--agent", "scout"], /^mnemo create-key: missing --name <name>\. See `npm run mnemo -- create-key --help`\.$/],
    [["create-key", "--workspace", "acme", "--agent", "scout", "--name"], /^mnemo create-key: --name needs a value\./],
    [["list-keys", "--workspace", "acme", "--agnet", "scout"], /^mnemo list-keys: there is no option --agnet\./],
    [["purge", "now"], /^mnemo purge: unexpected "now": every value follows its --flag\./],
    [["reset-password", "--email", "not-an-email"], /^mnemo reset-password: --email: Enter an email address such as name@example\.com\./],
    [["reset-password", "--email", "a@b.test", "--password-stdin=yes"], /^mnemo reset-password: --password-stdin takes no value\./],
    [["create-workspace", "--name", " ", "--owner-email", "a@b.test", "--owner-name", "A"], /^mnemo create-workspace: missing --name <name>\./],
  ])("%j", async (args, message) => {
    const run = await mnemo(args, { url: t.url });
    expect(run.code).toBe(2);
    expectOneLine(run, message);
    expect(run.stdout).toBe("");
  });

  it("refuses a too-short password on stdin and changes nothing", async () => {
    await seedDemo(t.db);
    const before = await passwordHashOf("ana@acme.test");
    const run = await mnemo(["reset-password", "--email", "ana@acme.test", "--password-stdin"], { url: t.url, stdin: "short\n" });
    expect(run.code).toBe(2);
    expectOneLine(run, /^mnemo reset-password: The password on stdin: Use at least 8 characters\./);
    expect(await passwordHashOf("ana@acme.test")).toBe(before);
  });
});

describe("create-workspace", () => {
  it("creates the person with a generated password, printed once, and makes them owner", async () => {
    const run = await mnemo(
      ["create-workspace", "--name", "Initech Labs", "--owner-email", "Peter@Initech.test", "--owner-name", "Peter Gibbons"],
      { url: t.url },
    );
    expect(run.code, run.stderr).toBe(0);
    const id = /Created the workspace "Initech Labs" \(id: (initech-labs-[0-9a-z]{6})\)\./.exec(run.stdout)?.[1];
    expect(id, run.stdout).toBeDefined();
    const password = printedPassword(run.stdout);
    expect(password.length).toBeGreaterThanOrEqual(20);

    const hash = await passwordHashOf("peter@initech.test");
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash!, password)).toBe(true);
    const [person] = await t.db.select().from(users).where(eq(users.email, "peter@initech.test"));
    expect(person.name).toBe("Peter Gibbons");
    const [membership] = await t.db.select().from(memberships).where(eq(memberships.userId, person.id));
    expect(membership).toMatchObject({ workspaceId: id, role: "owner" });
    expect(await audit(id!)).toEqual([
      { actorId: "operator", action: "workspace.create", summary: "Initech Labs" },
      { actorId: "operator", action: "member.add", summary: "Peter Gibbons, as owner" },
    ]);
  });

  it("takes the password from stdin and prints none", async () => {
    const run = await mnemo(
      ["create-workspace", "--name", "Hooli", "--owner-email", "gavin@hooli.test", "--owner-name", "Gavin", "--password-stdin"],
      { url: t.url, stdin: "correct horse battery\n" },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain("Password for");
    expect(await verifyPassword((await passwordHashOf("gavin@hooli.test"))!, "correct horse battery")).toBe(true);
  });

  it("makes an existing person owner without touching their password, and refuses a new password for them", async () => {
    await seedDemo(t.db);
    const before = await passwordHashOf("ana@acme.test");
    const run = await mnemo(["create-workspace", "--name", "Ana's Lab", "--owner-email", "ana@acme.test", "--owner-name", "X"], {
      url: t.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Ana Alves <ana@acme\.test> already had an account; they are now owner of ana-s-lab-[0-9a-z]{6}\./);
    expect(run.stdout).not.toContain("Password for");
    expect(await passwordHashOf("ana@acme.test")).toBe(before);

    const refused = await mnemo(
      ["create-workspace", "--name", "Other", "--owner-email", "ana@acme.test", "--owner-name", "X", "--password-stdin"],
      { url: t.url, stdin: "a-new-password\n" },
    );
    expect(refused.code).toBe(1);
    expectOneLine(refused, /^mnemo create-workspace: ana@acme\.test already has an account; its password stays\. Use reset-password/);
    expect(await t.db.select().from(workspaces).where(eq(workspaces.name, "Other"))).toEqual([]);
  });

  it("says when the existing owner has no password yet", async () => {
    await t.db.transaction((tx) => tx.insert(users).values({ id: "user_invited", name: "Ivy", email: "ivy@initech.test" }));
    const run = await mnemo(["create-workspace", "--name", "Ivy's", "--owner-email", "ivy@initech.test", "--owner-name", "Ivy"], {
      url: t.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("They have no password yet (an open invite, or single sign-on only): reset-password --email ivy@initech.test sets one.");
    expect(await passwordHashOf("ivy@initech.test")).toBeNull();
  });
});

describe("reset-password", () => {
  beforeEach(() => seedDemo(t.db));

  it("sets a generated password, clears failed sign-ins and tells each workspace's owners", async () => {
    await t.db.transaction((tx) =>
      tx
        .insert(signInFailures)
        .values([{ key: "account:max@acme.test" }, { key: "pair:max@acme.test 10.0.0.1" }, { key: "pair:max@acme.test.evil 10.0.0.1" }]),
    );
    const run = await mnemo(["reset-password", "--email", "MAX@acme.test"], { url: t.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Set a new password for Max Mills <max@acme.test>.");
    const password = printedPassword(run.stdout);
    expect(await verifyPassword((await passwordHashOf("max@acme.test"))!, password)).toBe(true);
    expect(await verifyPassword((await passwordHashOf("max@acme.test"))!, "demo-password")).toBe(false);
    // Max's failures from every address go; an account whose email merely starts with his keeps its own.
    expect(await t.db.select({ key: signInFailures.key }).from(signInFailures)).toEqual([{ key: "pair:max@acme.test.evil 10.0.0.1" }]);
    expect(await audit("acme")).toEqual([{ actorId: "operator", action: "person.reset-password", summary: "Max Mills" }]);
  });

  it("reads the password from stdin", async () => {
    const run = await mnemo(["reset-password", "--email", "gus@acme.test", "--password-stdin"], {
      url: t.url,
      stdin: "gus-new-password\n",
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain("Password for");
    expect(await verifyPassword((await passwordHashOf("gus@acme.test"))!, "gus-new-password")).toBe(true);
  });

  it("fails with one line for an unknown email", async () => {
    const run = await mnemo(["reset-password", "--email", "nobody@acme.test"], { url: t.url });
    expect(run.code).toBe(1);
    expectOneLine(run, /^mnemo reset-password: There is no account with the email nobody@acme\.test\.$/);
  });
});

describe("agent keys", () => {
  beforeEach(() => seedDemo(t.db));

  it("create-key prints a key once that is stored only as its hash; list-keys shows it; revoke-key by prefix revokes it", async () => {
    const created = await mnemo(["create-key", "--workspace", "acme", "--agent", "scout", "--name", "CI"], { url: t.url });
    expect(created.code, created.stderr).toBe(0);
    const key = /^ {2}(mnemo_[A-Za-z0-9_-]{32,})$/m.exec(created.stdout)?.[1];
    expect(key).toBeDefined();
    const [row] = await t.db.select().from(agentKeys).where(eq(agentKeys.hash, hashAgentKey(key!)));
    expect(row).toMatchObject({ agentId: "scout", name: "CI", prefix: key!.slice(0, 10), revokedAt: null });
    expect(JSON.stringify(await t.db.select().from(agentKeys))).not.toContain(key!);

    const listed = await mnemo(["list-keys", "--workspace", "acme", "--agent", "@scout"], { url: t.url });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/^ID\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+STATUS$/m);
    expect(listed.stdout).toMatch(new RegExp(`^${row.id}\\s+CI\\s+${row.prefix}\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\s+never\\s+live$`, "m"));
    expect(listed.stdout).not.toContain(key!);

    const revoked = await mnemo(["revoke-key", "--workspace", "acme", "--key", row.prefix], { url: t.url });
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`Revoked @scout's key "CI" (id: ${row.id}).`);
    const [after] = await t.db.select().from(agentKeys).where(eq(agentKeys.id, row.id));
    expect(after.revokedAt).not.toBeNull();
    expect((await audit("acme")).map((e) => [e.actorId, e.action])).toEqual([
      ["operator", "key.create"],
      ["operator", "key.revoke"],
    ]);

    const again = await mnemo(["revoke-key", "--workspace", "acme", "--key", row.id], { url: t.url });
    expect(again.code).toBe(1);
    expectOneLine(again, new RegExp(`^mnemo revoke-key: There is no live key "${row.id}" in the workspace "acme"\\.$`));
    expect((await mnemo(["list-keys", "--workspace", "acme", "--agent", "scout"], { url: t.url })).stdout).toMatch(
      new RegExp(`^${row.id}.*revoked \\d{4}-`, "m"),
    );
  });

  it("never reaches across workspaces: another workspace's key or agent is not found", async () => {
    const echoKey = await mnemo(["revoke-key", "--workspace", "acme", "--key", "key_demo_echo"], { url: t.url });
    expect(echoKey.code).toBe(1);
    expectOneLine(echoKey, /^mnemo revoke-key: There is no live key "key_demo_echo" in the workspace "acme"\.$/);
    const [echo] = await t.db.select().from(agentKeys).where(eq(agentKeys.id, "key_demo_echo"));
    expect(echo.revokedAt).toBeNull();

    const echoAgent = await mnemo(["create-key", "--workspace", "acme", "--agent", "echo", "--name", "x"], { url: t.url });
    expect(echoAgent.code).toBe(1);
    expectOneLine(echoAgent, /^mnemo create-key: There is no agent @echo in the workspace "acme"\.$/);
  });

  it.each([
    [["create-key", "--workspace", "nope", "--agent", "scout", "--name", "CI"]],
    [["list-keys", "--workspace", "nope", "--agent", "scout"]],
    [["revoke-key", "--workspace", "nope", "--key", "key_demo_scout"]],
  ])("a missing workspace fails with one clear line: %j", async (args) => {
    const run = await mnemo(args, { url: t.url });
    expect(run.code).toBe(1);
    expectOneLine(run, /^mnemo [a-z-]+: There is no workspace with the id "nope"\.$/);
    expect(await t.db.select().from(auditEvents)).toEqual([]);
  });
});

describe("purge", () => {
  it("deletes facts forgotten more than 7 days ago with their history, and keeps the recent ones", async () => {
    await seedDemo(t.db);
    const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const [old, recent] = await t.db.select({ id: facts.id }).from(facts).where(eq(facts.agentId, "scout")).limit(2);
    await t.db.transaction(async (tx) => {
      await tx.update(facts).set({ forgottenAt: days(8) }).where(eq(facts.id, old.id));
      await tx.update(facts).set({ forgottenAt: days(1) }).where(eq(facts.id, recent.id));
    });
    const run = await mnemo(["purge"], { url: t.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("Purged 1 fact forgotten more than 7 days ago.");
    expect(await t.db.select().from(facts).where(eq(facts.id, old.id))).toEqual([]);
    expect(await t.db.select().from(factEvents).where(eq(factEvents.factId, old.id))).toEqual([]);
    expect(await t.db.select().from(facts).where(eq(facts.id, recent.id))).toHaveLength(1);
    expect((await mnemo(["purge"], { url: t.url })).stdout.trim()).toBe("Purged 0 facts forgotten more than 7 days ago.");
  });
});

describe("check", () => {
  const journal = JSON.parse(readFileSync(path.join(ROOT, "drizzle/meta/_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };

  it("passes on a migrated database", async () => {
    await seedDemo(t.db);
    const run = await mnemo(["check"], { url: t.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`ok    migrations: all ${journal.entries.length} applied`);
    expect(run.stdout).toContain("ok    integrity: ok");
    expect(run.stdout).toContain("ok    foreign keys: ok");
  });

  it("fails when a migration is missing, naming it", async () => {
    const last = journal.entries[journal.entries.length - 1];
    await t.db.run(sql`DELETE FROM __drizzle_migrations WHERE created_at = ${last.when}`);
    const run = await mnemo(["check"], { url: t.url });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`FAIL  migrations: not applied: ${last.tag}`);
    expectOneLine(run, /^mnemo check: 1 of 5 checks failed for /);
    // check reports; it never migrates.
    const rows = await t.db.all(sql`SELECT 1 FROM __drizzle_migrations WHERE created_at = ${last.when}`);
    expect(rows).toEqual([]);
  });

  it("fails when a row points at nothing", async () => {
    await t.db.run(sql`PRAGMA foreign_keys = OFF`);
    await t.db.run(sql`INSERT INTO memberships (workspace_id, user_id, role) VALUES ('ghost-workspace', 'ghost', 'member')`);
    const run = await mnemo(["check"], { url: t.url });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL {2}foreign keys: 2 broken reference\(s\) in memberships/);
  });

  it("fails on a corrupted file", async () => {
    await seedDemo(t.db);
    await t.db.run(sql`PRAGMA wal_checkpoint(TRUNCATE)`);
    t.db.$client.close();
    // Scribble over the middle of the file, past the schema on page 1.
    const size = statSync(t.file).size;
    const fd = openSync(t.file, "r+");
    writeSync(fd, Buffer.alloc(4096 * 3, 0x5a), 0, 4096 * 3, Math.floor(size / 4096 / 2) * 4096);
    closeSync(fd);
    const run = await mnemo(["check"], { url: t.url });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL {2}integrity: /);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it("fails with one line on a file that is not a database, and on a missing file (without creating it)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mnemo-check-"));
    try {
      const notes = path.join(dir, "notes.db");
      writeFileSync(notes, "not a database\n".repeat(500));
      const garbage = await mnemo(["check"], { url: `file:${notes}` });
      expect(garbage.code).toBe(1);
      expectOneLine(garbage, /^mnemo check: Cannot read the database at .*notes\.db: SQLITE_NOTADB/);

      const missing = path.join(dir, "missing.db");
      const absent = await mnemo(["check"], { url: `file:${missing}` });
      expect(absent.code).toBe(1);
      expectOneLine(absent, /^mnemo check: There is no database file at .*missing\.db\.$/);
      expect(existsSync(missing)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("commands that change data migrate first", () => {
  it("purge on a new, empty file migrates it", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mnemo-fresh-"));
    try {
      const url = `file:${path.join(dir, "fresh.db")}`;
      expect((await mnemo(["purge"], { url })).code).toBe(0);
      expect((await mnemo(["check"], { url })).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
