/**
 * The Memory page's sort (fact-order.ts): for every order, walking the cursors
 * page by page shows each fact a person may see exactly once, in that order —
 * with many facts sharing a time and a recall count, so the id must break the
 * ties — and "26–50 of 92" (countVisibleThrough) agrees with the walk. The
 * expected lists come from the pure rule (visibleTo) sorted here in code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { factUsage, facts } from "@/db/schema";
import { seedDemo } from "@/db/seed";
import { newId } from "@/lib/ids";
import { viewerFromTables } from "@/lib/testing/demo-db";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import { dedupeKey } from "./fact-text";
import { visibleTo, type Scope } from "./rules";
import { countVisibleThrough, decodeCursor, encodeCursor, FACT_ORDERS, listVisibleFacts, type FactOrder } from "./store";

type Row = typeof facts.$inferSelect & { recalledCount: number };

const byId = (a: Row, b: Row) => (a.id === b.id ? 0 : a.id < b.id ? -1 : 1);
const desc = <T>(a: T, b: T) => (a === b ? 0 : a > b ? -1 : 1);

/** Each order as the store must apply it, written out independently (byte order, as SQLite compares ASCII). */
const EXPECTED_ORDER: Record<FactOrder, (a: Row, b: Row) => number> = {
  newest: (a, b) => desc(Number(a.pinned), Number(b.pinned)) || desc(a.updatedAt, b.updatedAt) || -byId(a, b),
  oldest: (a, b) => -desc(a.updatedAt, b.updatedAt) || byId(a, b),
  recalled: (a, b) => desc(a.recalledCount, b.recalledCount) || desc(a.updatedAt, b.updatedAt) || -byId(a, b),
};

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

let t: TempDb;
const max = { workspaceId: "acme", id: "max" };

/** Max's view by the pure rule, with each fact's recall count. */
async function visibleToMax(db: Db, scope?: Scope): Promise<Row[]> {
  const viewer = await viewerFromTables(db, "acme", "max");
  if (!viewer) throw new Error("max is in acme");
  const counts = new Map((await db.select().from(factUsage)).map((u) => [u.factSeq, u.recalledCount]));
  return (await db.select().from(facts).where(eq(facts.agentId, "scout")))
    .filter((f) => f.forgottenAt === null && f.proposedAt === null && visibleTo(f, viewer) && (!scope || f.scope === scope))
    .map((f) => ({ ...f, recalledCount: counts.get(f.seq) ?? 0 }));
}

/** Every fact of one order, page by page; checks each page's start ("26–50") as it goes. */
async function walk(db: Db, order: FactOrder, limit: number, scope?: Scope) {
  const seen: string[] = [];
  let after: string | null = null;
  for (let pages = 0; ; pages++) {
    if (pages > 1000) throw new Error("paging does not end");
    const cursor = decodeCursor(after, order);
    if (after) {
      expect(cursor).not.toBeNull();
      // The page after the cursor starts right after everything counted through it.
      expect(await countVisibleThrough(db, max, "scout", { scope }, cursor!)).toBe(seen.length);
    }
    const page = await listVisibleFacts(db, max, "scout", { order, after: cursor, limit, scope });
    if (page.next) expect(page.facts).toHaveLength(limit);
    if (pages > 0) expect(page.facts.length).toBeGreaterThan(0);
    seen.push(...ids(page.facts));
    if (!page.next) return seen;
    after = page.next;
  }
}

beforeAll(async () => {
  t = await createTempDb();
  await seedDemo(t.db);
  // 150 more facts on three times, so a time is shared by ~50; some pinned; 30 Max may not see.
  const times = ["2026-03-01T00:00:00.000Z", "2026-03-02T00:00:00.000Z", "2026-03-03T00:00:00.000Z"];
  const rows = Array.from({ length: 150 }, (_, i) => {
    const where =
      i % 10 === 0
        ? { scope: "person" as const, scopeRef: "ana" } // not max's
        : i % 10 === 5
          ? { scope: "channel" as const, scopeRef: "dm-ana" } // not max's
          : [
              { scope: "workspace" as const, scopeRef: "" },
              { scope: "channel" as const, scopeRef: "leadership" },
              { scope: "person" as const, scopeRef: "max" },
            ][i % 3];
    const at = times[i % 3];
    return {
      id: newId("fact"),
      agentId: "scout",
      workspaceId: "acme",
      ...where,
      scopeLabel: null,
      body: `Sorted fact ${i}.`,
      bodyKey: dedupeKey(`Sorted fact ${i}.`),
      sourceKind: "message" as const,
      createdBy: "scout",
      createdByKind: "agent" as const,
      pinned: i % 13 === 0,
      createdAt: at,
      updatedAt: at,
    };
  });
  for (let i = 0; i < rows.length; i += 50) await t.db.insert(facts).values(rows.slice(i, i + 50));
  // Recall counts 0–3 on two facts in three (the rest never recalled): ties on the count too. Kept by seq.
  const seqs = new Map((await t.db.select({ id: facts.id, seq: facts.seq }).from(facts)).map(({ id, seq }) => [id, seq]));
  await t.db
    .insert(factUsage)
    .values(rows.filter((_, i) => i % 3 !== 2).map((row, i) => ({ factSeq: seqs.get(row.id)!, recalledCount: i % 4, lastRecalledAt: row.updatedAt })));
  // Forgotten facts are in no order.
  await t.db.update(facts).set({ forgottenAt: "2026-03-04T00:00:00.000Z" }).where(eq(facts.body, "Sorted fact 1."));
});
afterAll(() => t.close());

describe("sorting the Memory page", () => {
  it("the data has ties on time and on recall count within what max sees", async () => {
    const visible = await visibleToMax(t.db);
    expect(visible.length).toBeGreaterThan(110);
    expect(new Set(visible.map((f) => f.updatedAt)).size).toBeLessThan(visible.length / 10);
    expect(new Set(visible.map((f) => f.recalledCount))).toEqual(new Set([0, 1, 2, 3]));
    expect(visible.some((f) => f.pinned)).toBe(true);
  });

  for (const order of FACT_ORDERS) {
    it(`${order}: every page size shows each visible fact once, in order, and the counts through each cursor agree`, async () => {
      const expected = ids((await visibleToMax(t.db)).sort(EXPECTED_ORDER[order]));
      for (const limit of [1, 7, 25, expected.length, 500]) expect(await walk(t.db, order, limit)).toEqual(expected);
      for (const scope of ["workspace", "channel", "person"] as const) {
        expect(await walk(t.db, order, 10, scope)).toEqual(ids((await visibleToMax(t.db, scope)).sort(EXPECTED_ORDER[order])));
      }
    });
  }

  it("the orders differ: oldest is newest's times reversed, most recalled leads with the most recalled", async () => {
    const [newest, oldest, recalled] = await Promise.all(
      FACT_ORDERS.map(async (order) => (await listVisibleFacts(t.db, max, "scout", { order, limit: 500 })).facts),
    );
    expect(oldest[0].updatedAt <= oldest[oldest.length - 1].updatedAt).toBe(true);
    expect(newest[0].pinned).toBe(true);
    expect(recalled[0].recalledCount).toBe(3);
    expect(recalled.map((f) => f.recalledCount)).toEqual([...recalled.map((f) => f.recalledCount)].sort((a, b) => b - a));
  });

  it("a cursor is read only by its own order; anything else starts from the top", async () => {
    const fact = { pinned: true, updatedAt: "2026-03-01T00:00:00.000Z", id: "fact_x", recalledCount: 4 };
    expect(decodeCursor(encodeCursor(fact))).toEqual({ order: "newest", keys: [1, fact.updatedAt, "fact_x"] });
    expect(decodeCursor(encodeCursor(fact, "oldest"), "oldest")).toEqual({ order: "oldest", keys: [fact.updatedAt, "fact_x"] });
    expect(decodeCursor(encodeCursor(fact, "recalled"), "recalled")).toEqual({ order: "recalled", keys: [4, fact.updatedAt, "fact_x"] });
    for (const order of FACT_ORDERS) {
      for (const other of FACT_ORDERS.filter((o) => o !== order)) expect(decodeCursor(encodeCursor(fact, other), order)).toBeNull();
    }
    const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    for (const bad of [raw(["recalled", -1, "x", "y"]), raw(["recalled", 1.5, "x", "y"]), raw(["recalled", "1", "x", "y"])]) {
      expect(decodeCursor(bad, "recalled")).toBeNull();
    }
    expect(decodeCursor(raw(["oldest", 1, "y"]), "oldest")).toBeNull();
    // The list itself ignores a cursor of another order.
    const newestCursor = decodeCursor(encodeCursor(fact), "newest");
    const top = await listVisibleFacts(t.db, max, "scout", { order: "oldest", after: newestCursor, limit: 5 });
    expect(ids(top.facts)).toEqual(ids((await visibleToMax(t.db)).sort(EXPECTED_ORDER.oldest).slice(0, 5)));
  });
});
