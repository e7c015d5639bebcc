/**
 * "Download as JSON" on a real database seeded with the demo: each person's file
 * holds exactly the live facts the pure rule (rules.visibleTo) lets them see —
 * computed here from the tables, not from the SQL under test — each in the wire
 * shape with its recall count and its whole history, and nothing forgotten.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { factEvents, facts } from "@/db/schema";
import { viewerFromTables } from "@/lib/testing/demo-db";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { factsFileShape, importedFact } from "@/lib/validation/facts-file";
import { exportFacts, exportFileName } from "./export";
import { UsageCounter } from "./usage";
import { visibleTo } from "./rules";
import { toMemory } from "./wire";
import { correctFact, forgetFact, type PersonActor } from "./writes";

const ACME = { id: "acme", name: "Acme" };
const SCOUT = { id: "scout", handle: "scout", name: "Scout" };
const ANA: PersonActor = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };

const t = tempDbForTests({ demo: true, each: true });


async function expectedIds(userId: string): Promise<string[]> {
  const viewer = await viewerFromTables(t.db, "acme", userId);
  if (!viewer) return [];
  const rows = await t.db.select().from(facts).where(eq(facts.agentId, "scout"));
  return rows.filter((f) => f.forgottenAt === null && visibleTo(f, viewer)).map((f) => f.id).sort();
}

async function idOf(body: string): Promise<string> {
  const [row] = await t.db.select({ id: facts.id }).from(facts).where(eq(facts.body, body));
  return row.id;
}

/** What the fact's recalls are counted under (lib/memory/usage.ts). */
async function seqOf(body: string): Promise<number> {
  const [row] = await t.db.select({ seq: facts.seq }).from(facts).where(eq(facts.body, body));
  return row.seq;
}

describe("exportFacts", () => {
  it.each(["olivia", "max", "ana", "gus"])("%s's file holds exactly the live facts visibleTo lets them see", async (userId) => {
    // Ana corrects her own fact (history of two events) and forgets the group DM's fact.
    await correctFact(t.db, ANA, "scout", await idOf("Ana prefers replies in Portuguese."), 1, "Ana prefers replies in Portuguese or English.");
    await forgetFact(t.db, ANA, "scout", await idOf("Max and Ana are pairing on the billing migration."));

    const file = await exportFacts(t.db, { workspaceId: "acme", id: userId }, ACME, SCOUT);
    expect(file.facts.map((f) => f.id).sort()).toEqual(await expectedIds(userId));
    expect(file.facts.map((f) => f.body)).not.toContain("Max and Ana are pairing on the billing migration.");
    expect(factsFileShape.safeParse(file).success).toBe(true);

    for (const fact of file.facts) {
      const [row] = await t.db.select().from(facts).where(eq(facts.id, fact.id));
      const events = await t.db.select().from(factEvents).where(eq(factEvents.factId, fact.id)).orderBy(factEvents.id);
      const { history, recalled_count, last_recalled_at, ...memory } = fact;
      expect(memory).toEqual(toMemory(row));
      expect([recalled_count, last_recalled_at]).toEqual([0, null]);
      expect(history).toEqual(
        events.map((e) => ({ kind: e.kind, actor_kind: e.actorKind, actor_name: e.actorName, before: e.before, after: e.after, at: e.at })),
      );
      expect(history.length).toBeGreaterThan(0);
      expect(importedFact.safeParse(fact).success).toBe(true);
    }
  });

  it("gives ana, by the demo's own words, the workspace, #support, her group DM and her own fact", async () => {
    const file = await exportFacts(t.db, { workspaceId: "acme", id: "ana" }, ACME, SCOUT);
    expect(file.facts.map((f) => f.body).sort()).toEqual(
      [
        "Ana prefers replies in Portuguese.",
        "Max and Ana are pairing on the billing migration.",
        "Refunds over $500 need a manager's approval.",
        "Releases go out on Thursdays.",
        "The Enterprise plan includes SSO.",
      ].sort(),
    );
  });

  it("keeps the history of a corrected fact, oldest first", async () => {
    const id = await idOf("Ana prefers replies in Portuguese.");
    await correctFact(t.db, ANA, "scout", id, 1, "Ana prefers replies in Portuguese or English.");
    const file = await exportFacts(t.db, { workspaceId: "acme", id: "ana" }, ACME, SCOUT);
    const fact = file.facts.find((f) => f.id === id);
    expect(fact?.body).toBe("Ana prefers replies in Portuguese or English.");
    expect(fact?.history.map((e) => [e.kind, e.actor_name, e.before, e.after])).toEqual([
      ["remember", "Scout", null, "Ana prefers replies in Portuguese."],
      ["correct", "Ana Alves", "Ana prefers replies in Portuguese.", "Ana prefers replies in Portuguese or English."],
    ]);
  });

  it("includes how often each fact was recalled and when last, as the Memory page shows it", async () => {
    const refunds = await seqOf("Refunds over $500 need a manager's approval.");
    const counter = new UsageCounter(600_000);
    for (let i = 0; i < 3; i++) counter.note(t.db, [refunds], Date.parse("2026-05-01T12:00:00.000Z") + i);
    await counter.flush();
    const file = await exportFacts(t.db, { workspaceId: "acme", id: "ana" }, ACME, SCOUT);
    const usage = Object.fromEntries(file.facts.map((f) => [f.body, [f.recalled_count, f.last_recalled_at]]));
    expect(usage).toEqual({
      "Refunds over $500 need a manager's approval.": [3, "2026-05-01T12:00:00.002Z"],
      "Ana prefers replies in Portuguese.": [0, null],
      "Max and Ana are pairing on the billing migration.": [0, null],
      "Releases go out on Thursdays.": [0, null],
      "The Enterprise plan includes SSO.": [0, null],
    });
    // Read back as JSON, the file still imports: the counts are extra fields import ignores.
    for (const fact of JSON.parse(JSON.stringify(file.facts)) as unknown[]) expect(importedFact.safeParse(fact).success).toBe(true);
  });

  it("gives nothing to someone who is not a member, nor across workspaces", async () => {
    expect((await exportFacts(t.db, { workspaceId: "acme", id: "gina" }, ACME, SCOUT)).facts).toEqual([]);
    const echo = await exportFacts(t.db, { workspaceId: "acme", id: "olivia" }, ACME, { id: "echo", handle: "echo", name: "Echo" });
    expect(echo.facts).toEqual([]);
  });

  it("says what the file is: format, version, when, the workspace and the agent", async () => {
    const now = new Date("2026-05-01T12:00:00Z");
    const file = await exportFacts(t.db, { workspaceId: "acme", id: "gus" }, ACME, SCOUT, now);
    expect(file).toMatchObject({
      format: "mnemo.facts",
      version: 1,
      exported_at: "2026-05-01T12:00:00.000Z",
      workspace: ACME,
      agent: { handle: "scout", name: "Scout" },
    });
    expect(exportFileName("scout", now)).toBe("scout-memory-2026-05-01.json");
    expect(exportFileName('we"ird/../handle', now)).toBe("we-ird-handle-memory-2026-05-01.json");
  });
});
