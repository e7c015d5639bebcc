/**
 * `npm run mnemo -- erase-person` as an operator runs it (a real process on a
 * temporary file): the dry run prints the counts and changes nothing; the real
 * one erases the person's facts with their history, ends their sessions, tells
 * the owners with counts, and prints no fact's text.
 */
import { describe, expect, it } from "vitest";
import { DEMO_FACTS, seedDemo } from "@/db/seed";
import { allRows } from "@/lib/testing/db-rows";
import { runMnemo } from "@/lib/testing/run-cli";
import { tempDbForTests } from "@/lib/testing/temp-db";

const t = tempDbForTests({ each: true });

async function rows(sql: string, args: string[] = []) {
  return (await t.db.$client.execute({ sql, args })).rows.map((row) => ({ ...row }));
}

describe("erase-person", () => {
  it("--dry-run prints counts per agent and changes nothing", async () => {
    await seedDemo(t.db);
    const before = await allRows(t.db);
    const run = await runMnemo(["erase-person", "--email", "ana@acme.test", "--dry-run"], { url: t.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("Dry run: would erase 1 fact kept just for Ana Alves <ana@acme.test> in every workspace.\n  acme @scout: 1 fact\n");
    expect(await allRows(t.db)).toEqual(before);
  });

  it("erases the person's facts and history in one workspace, ends their sessions, and tells the owners with counts", async () => {
    await seedDemo(t.db);
    const [fact] = await rows("SELECT id FROM facts WHERE body = ?", [DEMO_FACTS.anaPerson]);
    const [{ session_version: before }] = await rows("SELECT session_version FROM users WHERE id = 'ana'");
    const run = await runMnemo(["erase-person", "--email", "ana@acme.test", "--workspace", "acme"], { url: t.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Erased 1 fact kept just for Ana Alves <ana@acme.test> in Acme (acme), with their history.");
    expect(run.stdout).toContain("Ended every session of Ana Alves.");
    expect(run.stdout).not.toContain("Portuguese");
    expect(await rows("SELECT id FROM facts WHERE id = ?", [String(fact.id)])).toEqual([]);
    expect(await rows("SELECT id FROM fact_events WHERE fact_id = ?", [String(fact.id)])).toEqual([]);
    const [{ session_version: after }] = await rows("SELECT session_version FROM users WHERE id = 'ana'");
    expect(Number(after)).toBe(Number(before) + 1);
    expect(await rows("SELECT actor_id, action, summary FROM audit_events WHERE workspace_id = 'acme'")).toEqual([
      { actor_id: "operator", action: "person.erase", summary: "Ana Alves: erased 1 fact (@scout 1) kept just for them" },
    ]);
    // Max's person fact, in the same workspace, is untouched.
    expect(await rows("SELECT body FROM facts WHERE body = ?", [DEMO_FACTS.maxPerson])).toHaveLength(1);
  });

  it("fails with one line for an unknown email or workspace, and exits 2 without --email", async () => {
    await seedDemo(t.db);
    const unknown = await runMnemo(["erase-person", "--email", "nobody@acme.test"], { url: t.url });
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, "mnemo erase-person: There is no account with the email nobody@acme.test."]);
    const nowhere = await runMnemo(["erase-person", "--email", "ana@acme.test", "--workspace", "nowhere"], { url: t.url });
    expect([nowhere.code, nowhere.stderr.trim()]).toEqual([1, 'mnemo erase-person: There is no workspace with the id "nowhere".']);
    const missing = await runMnemo(["erase-person"], { url: t.url });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing --email <email>/);
  });
});
