/**
 * Erasure after a replacement (issue #16 × #15): a person fact an agent retires with
 * `replaces` lives on as history of the fact that replaced it, so only another fact kept
 * just for that person may replace it (keepsAudience in lib/memory/replace.ts) — then
 * "Erase what agents keep just for me" finds every copy of its text.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { facts } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { OPERATOR } from "@/lib/admin/audit";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { derivePlace } from "@/lib/memory/place";
import { utcDay } from "@/lib/memory/rules";
import { remember } from "@/lib/memory/writes";
import { erasePersonFacts } from "./erase-person-facts";

const t = tempDbForTests({ demo: true, each: true });

async function everyText(): Promise<string[]> {
  const { rows: tables } = await t.db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table'");
  const texts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await t.db.$client.execute(`SELECT * FROM "${String(name)}"`);
    for (const row of rows) for (const value of Object.values(row)) if (typeof value === "string") texts.push(value);
  }
  return texts;
}

const byScout = { kind: "agent", id: "scout", name: "Scout" } as const;
const fromAna = { kind: "message", ref: null, label: "@ana in #dm-ana", channelId: "dm-ana" } as const;

async function anaFactId(): Promise<string> {
  const [old] = await t.db.select({ id: facts.id }).from(facts).where(eq(facts.body, DEMO_FACTS.anaPerson));
  return old.id;
}

describe("erasure of a person fact retired by a replacement", () => {
  it("refuses a channel fact of the person's DM as its replacement, and keeps the old fact", async () => {
    const id = await anaFactId();
    const { place } = await derivePlace(t.db, "acme", "dm-ana", "ana");
    const result = await remember(t.db, {
      agentId: "scout", workspaceId: "acme", body: "Ana likes short replies.", scope: "channel", scopeRef: "dm-ana",
      scopeLabel: "Your DM", source: fromAna, by: byScout, pinned: false, replaces: { id, place, today: utcDay() },
    });
    expect(result.status).toBe("replace_widens");
    const [still] = await t.db.select({ body: facts.body }).from(facts).where(eq(facts.id, id));
    expect(still.body).toBe(DEMO_FACTS.anaPerson);
    expect((await everyText()).some((text) => text === "Ana likes short replies.")).toBe(false);
  });

  it("leaves its text in no table once erased, when another of the person's facts replaced it", async () => {
    const id = await anaFactId();
    const { place } = await derivePlace(t.db, "acme", "dm-ana", "ana");
    const result = await remember(t.db, {
      agentId: "scout", workspaceId: "acme", body: "Ana likes short replies.", scope: "person", scopeRef: "ana",
      scopeLabel: null, source: fromAna, by: byScout, pinned: false, replaces: { id, place, today: utcDay() },
    });
    expect(result.status === "created" && result.replaced?.id).toBe(id);
    expect((await everyText()).some((text) => text.includes("Portuguese"))).toBe(true);

    await erasePersonFacts(t.db, "ana", { dryRun: false, by: OPERATOR });
    expect((await everyText()).filter((text) => text.includes("Portuguese") || text.includes("short replies"))).toEqual([]);
  });
});
