/**
 * Reading facts on a real database: recall in each demo place, and every list,
 * count and read for people compared with the pure rules of rules.ts — over the
 * demo, over ~120 facts page by page, and over random workspaces.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { agents, channelMembers, channels, facts, memberships, users, workspaces } from "@/db/schema";
import { DEMO_FACTS, DEMO_PEOPLE, seedDemo } from "@/db/seed";
import { newId } from "@/lib/ids";
import { viewerFromTables } from "@/lib/testing/demo-db";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import { dedupeKey } from "./fact-text";
import { derivePlace } from "./place";
import { RECALL_LIMIT, recallable, shownTo, visibleTo, type Place } from "./rules";
import {
  countVisibleFacts,
  decodeCursor,
  encodeCursor,
  factHistory,
  getVisibleFact,
  listExpiredFacts,
  listVisibleFacts,
  recall,
  recallableCount,
  type ListedFact,
  type StoredFact,
} from "./store";
import { UsageCounter } from "./usage";
import { correctFact, forgetFact } from "./writes";


// --- Helpers ---

type Row = typeof facts.$inferSelect;

/** Recall order: pinned first, then newest, ties broken by id (as the store does, in byte order). */
function recallOrder(a: Pick<Row, "pinned" | "updatedAt" | "id">, b: Pick<Row, "pinned" | "updatedAt" | "id">) {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt ? -1 : 1;
  return a.id === b.id ? 0 : a.id > b.id ? -1 : 1;
}

/** Every fact row of an agent, forgotten ones included: what the pure rules are applied to. */
async function allFactsOf(db: Db, agentId: string): Promise<Row[]> {
  return db.select().from(facts).where(eq(facts.agentId, agentId));
}

/**
 * The Viewer of the pure rules, built straight from the tables: the role from
 * memberships, readable channels = the workspace's public channels + the
 * person's channel_members rows. Null for someone who is not a member.
 */

/** What listVisibleFacts must return, by the pure rule: live facts the viewer may see, in recall order; proposals are the Inbox's. */
async function expectedVisible(db: Db, workspaceId: string, userId: string, agentId: string): Promise<Row[]> {
  const viewer = await viewerFromTables(db, workspaceId, userId);
  if (!viewer) return [];
  return (await allFactsOf(db, agentId))
    .filter((f) => f.forgottenAt === null && f.proposedAt === null && visibleTo(f, viewer))
    .sort(recallOrder);
}

/** What recall must return, by the pure rule: live recallable facts in recall order, at most RECALL_LIMIT. */
async function expectedRecall(db: Db, agentId: string, place: Place): Promise<Row[]> {
  return (await allFactsOf(db, agentId))
    .filter((f) => f.forgottenAt === null && recallable(f, place))
    .sort(recallOrder)
    .slice(0, RECALL_LIMIT);
}

/** Every visible fact, walking `next` cursors page by page. */
async function walkPages(
  db: Db,
  viewer: { workspaceId: string; id: string },
  agentId: string,
  limit: number,
  scope?: "workspace" | "channel" | "person",
) {
  const seen: StoredFact[] = [];
  let after: string | null = null;
  let pages = 0;
  do {
    const page: { facts: StoredFact[]; next: string | null } = await listVisibleFacts(db, viewer, agentId, {
      limit,
      scope,
      after: decodeCursor(after),
    });
    expect(page.facts.length).toBeLessThanOrEqual(limit);
    // A full page says there is more only when there is: never a trailing empty page.
    if (page.next) expect(page.facts.length).toBe(limit);
    if (pages > 0) expect(page.facts.length).toBeGreaterThan(0);
    seen.push(...page.facts);
    after = page.next;
    pages += 1;
    if (pages > 1000) throw new Error("pagination does not end");
  } while (after);
  return { facts: seen, pages };
}

const bodies = (rows: { body: string }[]) => rows.map((r) => r.body);
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

async function placeOf(db: Db, workspaceId: string, channelId: string, askerId: string | null) {
  return (await derivePlace(db, workspaceId, channelId, askerId)).place;
}

/** A fact row for direct inserts; defaults to an agent-kept scout fact in acme. */
function factRow(values: Partial<typeof facts.$inferInsert> & Pick<typeof facts.$inferInsert, "body" | "scope" | "scopeRef">) {
  const at = values.updatedAt ?? "2026-02-01T00:00:00.000Z";
  return {
    id: newId("fact"),
    agentId: "scout",
    workspaceId: "acme",
    scopeLabel: null,
    bodyKey: dedupeKey(values.body),
    sourceKind: "message" as const,
    createdBy: "scout",
    createdByKind: "agent" as const,
    pinned: false,
    createdAt: at,
    updatedAt: at,
    ...values,
  };
}

async function insertFacts(db: Db, rows: ReturnType<typeof factRow>[]) {
  for (let i = 0; i < rows.length; i += 100) await db.insert(facts).values(rows.slice(i, i + 100));
}

/**
 * The demo, with each fact's updated_at one minute after the previous one in the
 * order the seed kept them, so recall order is fully determined.
 */
async function demoWithDistinctTimes(): Promise<TempDb> {
  const t = await createTempDb();
  await seedDemo(t.db);
  await t.db.run(
    sql`UPDATE facts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || seq || ' minutes')`,
  );
  return t;
}

// --- Recall ---

describe("recall over the demo", () => {
  let t: TempDb;
  beforeAll(async () => {
    t = await demoWithDistinctTimes();
  });
  afterAll(() => t.close());

  const cases: [string, string | null, string[]][] = [
    // Pinned first (newest pinned first), then the newest.
    ["dm-ana", "ana", [DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.anaPerson]],
    ["dm-max", "max", [DEMO_FACTS.releases, DEMO_FACTS.maxPerson, DEMO_FACTS.sso]],
    ["dm-gus", "gus", [DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.gusPerson]],
    ["group-max-ana", "ana", [DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.pairing]],
    ["leadership", "olivia", [DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.budget]],
    ["support", "gus", [DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.refunds]],
    ["general", "olivia", [DEMO_FACTS.releases, DEMO_FACTS.sso]],
  ];

  for (const [channel, asker, expected] of cases) {
    it(`in ${channel} asked by ${asker}, scout recalls exactly ${expected.length} facts in order`, async () => {
      const place = await placeOf(t.db, "acme", channel, asker);
      const recalled = await recall(t.db, "scout", place);
      expect(new Set(bodies(recalled))).toEqual(new Set(expected));
      expect(bodies(recalled)).toEqual(expected);
      expect(ids(recalled)).toEqual(ids(await expectedRecall(t.db, "scout", place)));
    });
  }

  it("a group DM never recalls its people's person facts, a public channel never its asker's", async () => {
    const group = bodies(await recall(t.db, "scout", await placeOf(t.db, "acme", "group-max-ana", "max")));
    expect(group).not.toContain(DEMO_FACTS.anaPerson);
    expect(group).not.toContain(DEMO_FACTS.maxPerson);
    const support = bodies(await recall(t.db, "scout", await placeOf(t.db, "acme", "support", "ana")));
    expect(support).not.toContain(DEMO_FACTS.anaPerson);
  });

  it("echo's facts are never recalled for acme, and scout's never for globex", async () => {
    for (const channel of ["general", "dm-ana", "leadership", "group-max-ana"]) {
      expect(await recall(t.db, "echo", await placeOf(t.db, "acme", channel, null))).toEqual([]);
    }
    expect(bodies(await recall(t.db, "echo", await placeOf(t.db, "globex", "lobby", "gina")))).toEqual([DEMO_FACTS.globex]);
    expect(await recall(t.db, "scout", await placeOf(t.db, "globex", "lobby", "gina"))).toEqual([]);
    expect(await recall(t.db, "scout", await placeOf(t.db, "globex", "dm-gina", "gina"))).toEqual([]);
  });

  it("a fact until yesterday is neither recalled nor counted, pinned or not; one until today is", async () => {
    const until = (day: string | null, body: string) =>
      t.db.update(facts).set({ validUntil: day }).where(eq(facts.body, body));
    await until("2026-06-14", DEMO_FACTS.releases); // pinned
    await until("2026-06-15", DEMO_FACTS.anaPerson);
    try {
      const place = await placeOf(t.db, "acme", "dm-ana", "ana");
      expect(bodies(await recall(t.db, "scout", place, "2026-06-14"))).toEqual([DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.anaPerson]);
      expect(bodies(await recall(t.db, "scout", place, "2026-06-15"))).toEqual([DEMO_FACTS.sso, DEMO_FACTS.anaPerson]);
      expect(bodies(await recall(t.db, "scout", place, "2026-06-16"))).toEqual([DEMO_FACTS.sso]);
      expect(await recallableCount(t.db, "scout", place, "2026-06-14")).toBe(3);
      expect(await recallableCount(t.db, "scout", place, "2026-06-15")).toBe(2);
      expect(await recallableCount(t.db, "scout", place, "2026-06-16")).toBe(1);
    } finally {
      await until(null, DEMO_FACTS.releases);
      await until(null, DEMO_FACTS.anaPerson);
    }
  });

  it("expired facts are listed apart, to those who may change them, and left out of the lists that ask", async () => {
    const until = (day: string | null, body: string) =>
      t.db.update(facts).set({ validUntil: day }).where(eq(facts.body, body));
    await until("2026-06-14", DEMO_FACTS.anaPerson);
    await until("2026-06-14", DEMO_FACTS.releases);
    try {
      const ana = { workspaceId: "acme", id: "ana" };
      const olivia = { workspaceId: "acme", id: "olivia" };
      // Ana may change her own fact, not the workspace's: only hers is hers to renew or forget.
      expect(await listExpiredFacts(t.db, ana, "scout", "2026-06-15")).toMatchObject({
        total: 1,
        facts: [{ body: DEMO_FACTS.anaPerson, validUntil: "2026-06-14" }],
      });
      expect(await listExpiredFacts(t.db, olivia, "scout", "2026-06-15")).toMatchObject({
        total: 1,
        facts: [{ body: DEMO_FACTS.releases }],
      });
      // On their last day they are not expired.
      expect(await listExpiredFacts(t.db, ana, "scout", "2026-06-14")).toEqual({ total: 0, facts: [] });
      const listed = async (unexpiredOn?: string) =>
        bodies((await listVisibleFacts(t.db, ana, "scout", { scope: "person", unexpiredOn })).facts);
      expect(await listed()).toContain(DEMO_FACTS.anaPerson);
      expect(await listed("2026-06-14")).toContain(DEMO_FACTS.anaPerson);
      expect(await listed("2026-06-15")).not.toContain(DEMO_FACTS.anaPerson);
    } finally {
      await until(null, DEMO_FACTS.anaPerson);
      await until(null, DEMO_FACTS.releases);
    }
  });

  it("forgotten facts are never recalled, pinned or not", async () => {
    const olivia = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
    const ana = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };
    const idOf = async (body: string) =>
      (await t.db.select({ id: facts.id }).from(facts).where(eq(facts.body, body)))[0].id;
    expect(await forgetFact(t.db, olivia, "scout", await idOf(DEMO_FACTS.releases))).toEqual({ status: "forgotten" });
    expect(await forgetFact(t.db, ana, "scout", await idOf(DEMO_FACTS.anaPerson))).toEqual({ status: "forgotten" });
    const place = await placeOf(t.db, "acme", "dm-ana", "ana");
    expect(bodies(await recall(t.db, "scout", place))).toEqual([DEMO_FACTS.sso]);
    expect(bodies(await recall(t.db, "scout", await placeOf(t.db, "acme", "dm-max", "max")))).toEqual([DEMO_FACTS.maxPerson, DEMO_FACTS.sso]);
  });
});

describe("recall at size", () => {
  let t: TempDb;
  beforeAll(async () => {
    t = await demoWithDistinctTimes();
  });
  afterAll(() => t.close());

  it("never gives more than 40, pinned first then newest, whatever the mix of scopes", async () => {
    // 100 support facts, one second apart, every tenth pinned; 60 newer workspace facts;
    // 50 newer person facts of ana (which no public channel may recall).
    const support = Array.from({ length: 100 }, (_, i) =>
      factRow({
        body: `Support fact ${i}.`,
        scope: "channel",
        scopeRef: "support",
        pinned: i % 10 === 0,
        updatedAt: new Date(Date.UTC(2026, 2, 1, 0, 0, i)).toISOString(),
      }),
    );
    const workspace = Array.from({ length: 60 }, (_, i) =>
      factRow({
        body: `Workspace fact ${i}.`,
        scope: "workspace",
        scopeRef: "",
        updatedAt: new Date(Date.UTC(2026, 2, 1, 0, 1, 30 + i)).toISOString(),
      }),
    );
    const personal = Array.from({ length: 50 }, (_, i) =>
      factRow({
        body: `Ana fact ${i}.`,
        scope: "person",
        scopeRef: "ana",
        updatedAt: new Date(Date.UTC(2026, 2, 2, 0, 0, i)).toISOString(),
      }),
    );
    await insertFacts(t.db, [...support, ...workspace, ...personal]);

    const place = await placeOf(t.db, "acme", "support", "ana");
    const recalled = await recall(t.db, "scout", place);
    expect(recalled).toHaveLength(RECALL_LIMIT);
    // The 11 pinned facts (10 support + "Releases go out on Thursdays."), newest first.
    const pinned = [...support.filter((f) => f.pinned).map((f) => f.body).reverse(), DEMO_FACTS.releases];
    expect(bodies(recalled.slice(0, 11))).toEqual(pinned);
    expect(recalled.slice(0, 11).every((f) => f.pinned)).toBe(true);
    expect(recalled.slice(11).every((f) => !f.pinned)).toBe(true);
    // Then the newest 29 unpinned: all 60 workspace facts are newer than every support fact.
    expect(bodies(recalled.slice(11))).toEqual(
      Array.from({ length: 29 }, (_, i) => `Workspace fact ${59 - i}.`),
    );
    expect(ids(recalled)).toEqual(ids(await expectedRecall(t.db, "scout", place)));
    for (let i = 1; i < recalled.length; i++) expect(recallOrder(recalled[i - 1], recalled[i])).toBeLessThan(0);

    // In ana's DM her 50 newer person facts take the unpinned places.
    const dm = await placeOf(t.db, "acme", "dm-ana", "ana");
    const inDm = await recall(t.db, "scout", dm);
    expect(inDm).toHaveLength(RECALL_LIMIT);
    expect(bodies(inDm)[0]).toBe(DEMO_FACTS.releases);
    expect(bodies(inDm.slice(1))).toEqual(Array.from({ length: 39 }, (_, i) => `Ana fact ${49 - i}.`));
    expect(ids(inDm)).toEqual(ids(await expectedRecall(t.db, "scout", dm)));
  });
});

// --- Listing for people ---

describe("listVisibleFacts over the demo", () => {
  let t: TempDb;
  beforeAll(async () => {
    t = await demoWithDistinctTimes();
  });
  afterAll(() => t.close());

  const seen: Record<string, string[]> = {
    olivia: [DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.refunds, DEMO_FACTS.budget],
    max: [DEMO_FACTS.releases, DEMO_FACTS.maxPerson, DEMO_FACTS.sso, DEMO_FACTS.refunds, DEMO_FACTS.pairing, DEMO_FACTS.budget],
    ana: [DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.refunds, DEMO_FACTS.anaPerson, DEMO_FACTS.pairing],
    gus: [DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.refunds, DEMO_FACTS.gusPerson],
    gina: [],
  };

  for (const person of DEMO_PEOPLE) {
    it(`${person.id} sees exactly what visibleTo allows, in recall order`, async () => {
      const viewer = { workspaceId: "acme", id: person.id };
      const { facts: listed, next } = await listVisibleFacts(t.db, viewer, "scout", { limit: 100 });
      expect(next).toBeNull();
      expect(new Set(bodies(listed))).toEqual(new Set(seen[person.id]));
      expect(ids(listed)).toEqual(ids(await expectedVisible(t.db, "acme", person.id, "scout")));
    });
  }

  it("an owner sees no one's person facts and no conversation she is not in", async () => {
    const listed = bodies((await listVisibleFacts(t.db, { workspaceId: "acme", id: "olivia" }, "scout")).facts);
    for (const hidden of [DEMO_FACTS.anaPerson, DEMO_FACTS.maxPerson, DEMO_FACTS.gusPerson, DEMO_FACTS.pairing]) expect(listed).not.toContain(hidden);
  });

  it("nothing crosses workspaces: gina sees echo's fact only, acme's people see none of echo's", async () => {
    const gina = { workspaceId: "globex", id: "gina" };
    expect(bodies((await listVisibleFacts(t.db, gina, "echo")).facts)).toEqual([DEMO_FACTS.globex]);
    expect((await listVisibleFacts(t.db, gina, "scout")).facts).toEqual([]);
    // Naming another workspace does not help someone who is not in it.
    expect((await listVisibleFacts(t.db, { workspaceId: "globex", id: "olivia" }, "echo")).facts).toEqual([]);
    expect((await listVisibleFacts(t.db, { workspaceId: "acme", id: "olivia" }, "echo")).facts).toEqual([]);
  });

  it("filters by scope", async () => {
    const max = { workspaceId: "acme", id: "max" };
    expect(bodies((await listVisibleFacts(t.db, max, "scout", { scope: "workspace" })).facts)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.sso]);
    expect(bodies((await listVisibleFacts(t.db, max, "scout", { scope: "channel" })).facts)).toEqual([
      DEMO_FACTS.refunds,
      DEMO_FACTS.pairing,
      DEMO_FACTS.budget,
    ]);
    expect(bodies((await listVisibleFacts(t.db, max, "scout", { scope: "person" })).facts)).toEqual([DEMO_FACTS.maxPerson]);
  });

  it("countVisibleFacts gives each person's count per scope", async () => {
    const count = (userId: string) => countVisibleFacts(t.db, { workspaceId: "acme", id: userId }, "scout");
    expect(await count("olivia")).toEqual({ workspace: 2, channel: 2, person: 0 });
    expect(await count("max")).toEqual({ workspace: 2, channel: 3, person: 1 });
    expect(await count("ana")).toEqual({ workspace: 2, channel: 2, person: 1 });
    expect(await count("gus")).toEqual({ workspace: 2, channel: 1, person: 1 });
    expect(await count("gina")).toEqual({ workspace: 0, channel: 0, person: 0 });
  });

  it("follows the tables: leaving a channel hides its facts, a channel made public shows them", async () => {
    const ana = { workspaceId: "acme", id: "ana" };
    await t.db
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, "group-max-ana"), eq(channelMembers.userId, "ana")));
    await t.db.update(channels).set({ kind: "public" }).where(eq(channels.id, "leadership"));
    const listed = bodies((await listVisibleFacts(t.db, ana, "scout")).facts);
    expect(listed).not.toContain(DEMO_FACTS.pairing);
    expect(listed).toContain(DEMO_FACTS.budget);
    expect(ids((await listVisibleFacts(t.db, ana, "scout")).facts)).toEqual(
      ids(await expectedVisible(t.db, "acme", "ana", "scout")),
    );
    // Leaving the workspace ends everything.
    await t.db.delete(memberships).where(and(eq(memberships.workspaceId, "acme"), eq(memberships.userId, "ana")));
    expect((await listVisibleFacts(t.db, ana, "scout")).facts).toEqual([]);
    expect(await countVisibleFacts(t.db, ana, "scout")).toEqual({ workspace: 0, channel: 0, person: 0 });
  });
});

describe("recall counts on the Memory page", () => {
  let t: TempDb;
  const DAY = 86_400_000;
  const NOW = Date.parse("2026-05-01T12:00:00.000Z");
  const cutoff = new Date(NOW - 30 * DAY).toISOString();
  beforeAll(async () => {
    t = await demoWithDistinctTimes();
    const seqOf = async (body: string) => (await t.db.select({ seq: facts.seq }).from(facts).where(eq(facts.body, body)))[0].seq;
    // Written the way the app writes them: noted recalls (by seq), one flush.
    const counter = new UsageCounter(600_000);
    for (let i = 0; i < 14; i++) counter.note(t.db, [await seqOf(DEMO_FACTS.refunds)], NOW - 2 * DAY);
    counter.note(t.db, [await seqOf(DEMO_FACTS.budget)], NOW - DAY);
    counter.note(t.db, [await seqOf(DEMO_FACTS.sso)], NOW - 31 * DAY);
    counter.note(t.db, [await seqOf(DEMO_FACTS.releases)], NOW - 30 * DAY); // exactly 30 days: recalled within them
    await counter.flush();
  });
  afterAll(() => t.close());

  const max = { workspaceId: "acme", id: "max" };
  const ana = { workspaceId: "acme", id: "ana" };
  const usageOf = (listed: ListedFact[]) =>
    Object.fromEntries(listed.map((fact) => [fact.body, [fact.recalledCount, fact.lastRecalledAt]]));

  it("each listed fact carries how often it was recalled and when last; never recalled is 0 and null", async () => {
    const listed = (await listVisibleFacts(t.db, max, "scout", { limit: 100 })).facts;
    expect(usageOf(listed)).toEqual({
      [DEMO_FACTS.refunds]: [14, new Date(NOW - 2 * DAY).toISOString()],
      [DEMO_FACTS.budget]: [1, new Date(NOW - DAY).toISOString()],
      [DEMO_FACTS.sso]: [1, new Date(NOW - 31 * DAY).toISOString()],
      [DEMO_FACTS.releases]: [1, new Date(NOW - 30 * DAY).toISOString()],
      [DEMO_FACTS.maxPerson]: [0, null],
      [DEMO_FACTS.pairing]: [0, null],
    });
  });

  it("'not recalled in 30 days' keeps the stale and the never recalled, in SQL, and counts agree", async () => {
    const filters = { notRecalledSince: cutoff };
    const listed = (await listVisibleFacts(t.db, max, "scout", { ...filters, limit: 100 })).facts;
    expect(new Set(bodies(listed))).toEqual(new Set([DEMO_FACTS.sso, DEMO_FACTS.maxPerson, DEMO_FACTS.pairing]));
    expect(await countVisibleFacts(t.db, max, "scout", filters)).toEqual({ workspace: 1, channel: 1, person: 1 });
    // It combines with the other filters.
    expect(bodies((await listVisibleFacts(t.db, max, "scout", { ...filters, scope: "channel" })).facts)).toEqual([DEMO_FACTS.pairing]);
  });

  it("never widens what a person sees: ana's stale facts are a subset of her own list", async () => {
    const all = ids((await listVisibleFacts(t.db, ana, "scout", { limit: 100 })).facts);
    const stale = (await listVisibleFacts(t.db, ana, "scout", { notRecalledSince: cutoff, limit: 100 })).facts;
    for (const id of ids(stale)) expect(all).toContain(id);
    expect(bodies(stale)).not.toContain(DEMO_FACTS.budget);
    expect(new Set(bodies(stale))).toEqual(new Set([DEMO_FACTS.sso, DEMO_FACTS.anaPerson, DEMO_FACTS.pairing]));
  });
});

describe("keyset pagination over ~120 visible facts", () => {
  let t: TempDb;
  let visible: Row[];
  const max = { workspaceId: "acme", id: "max" };
  beforeAll(async () => {
    t = await demoWithDistinctTimes();
    // 130 facts max can see and 40 he cannot, with many ties on updated_at so the id decides.
    const times = ["2026-03-01T00:00:00.000Z", "2026-03-02T00:00:00.000Z", "2026-03-03T00:00:00.000Z"];
    const rows = Array.from({ length: 170 }, (_, i) => {
      const where =
        i % 17 === 0
          ? { scope: "person" as const, scopeRef: "ana" } // hidden from max
          : i % 5 === 0
            ? { scope: "channel" as const, scopeRef: "dm-ana" } // hidden from max
            : i % 3 === 0
              ? { scope: "channel" as const, scopeRef: "leadership" }
              : i % 3 === 1
                ? { scope: "workspace" as const, scopeRef: "" }
                : { scope: "person" as const, scopeRef: "max" };
      return factRow({ body: `Paged fact ${i}.`, ...where, pinned: i % 11 === 0, updatedAt: times[i % 3] });
    });
    await insertFacts(t.db, rows);
    // A few forgotten ones, which no list shows.
    await t.db
      .update(facts)
      .set({ forgottenAt: "2026-03-04T00:00:00.000Z" })
      .where(sql`${facts.body} IN ('Paged fact 1.', 'Paged fact 2.', 'Paged fact 4.')`);
    visible = await expectedVisible(t.db, "acme", "max", "scout");
  });
  afterAll(() => t.close());

  it("the test data has about 120 visible facts with pinned ones and ties", () => {
    expect(visible.length).toBeGreaterThanOrEqual(110);
    expect(visible.length).toBeLessThanOrEqual(140);
    expect(visible.some((f) => f.pinned)).toBe(true);
    expect(new Set(visible.map((f) => f.updatedAt)).size).toBeLessThan(visible.length);
  });

  it("walking `next` with pages of 25 yields every visible fact exactly once, in recall order", async () => {
    const { facts: walked, pages } = await walkPages(t.db, max, "scout", 25);
    expect(pages).toBe(Math.ceil(visible.length / 25));
    expect(new Set(ids(walked)).size).toBe(walked.length);
    expect(ids(walked)).toEqual(ids(visible));
  });

  it("the default page size is 25", async () => {
    const first = await listVisibleFacts(t.db, max, "scout");
    expect(first.facts).toHaveLength(25);
    expect(first.next).not.toBeNull();
  });

  it("pages of every size, and within one scope, agree with the rule", async () => {
    // 1 and the count itself divide the count exactly: the last page must end the walk.
    for (const limit of [1, 7, 24, 26, visible.length, 200]) {
      expect(ids((await walkPages(t.db, max, "scout", limit)).facts)).toEqual(ids(visible));
    }
    for (const scope of ["workspace", "channel", "person"] as const) {
      expect(ids((await walkPages(t.db, max, "scout", 10, scope)).facts)).toEqual(
        ids(visible.filter((f) => f.scope === scope)),
      );
    }
  });

  it("countVisibleFacts matches the walk", async () => {
    const counts = await countVisibleFacts(t.db, max, "scout");
    expect(counts).toEqual({
      workspace: visible.filter((f) => f.scope === "workspace").length,
      channel: visible.filter((f) => f.scope === "channel").length,
      person: visible.filter((f) => f.scope === "person").length,
    });
  });

  it("a cursor round-trips; a garbage cursor decodes to null and starts from the top", async () => {
    const fact = { pinned: true, updatedAt: "2026-03-01T00:00:00.000Z", id: "fact_x" };
    expect(decodeCursor(encodeCursor(fact))).toEqual({ order: "newest", keys: [1, fact.updatedAt, fact.id] });
    for (const garbage of [
      "garbage",
      "!!!",
      "",
      null,
      undefined,
      Buffer.from("[2,\"x\",\"y\"]").toString("base64url"),
      Buffer.from("[1,\"x\"]").toString("base64url"),
      Buffer.from("{\"pinned\":1}").toString("base64url"),
      Buffer.from("[1,5,\"y\"]").toString("base64url"),
    ]) {
      expect(decodeCursor(garbage)).toBeNull();
    }
    const top = await listVisibleFacts(t.db, max, "scout", { after: decodeCursor("garbage") });
    expect(ids(top.facts)).toEqual(ids(visible.slice(0, 25)));
  });
});

describe("reading one fact and its history", () => {
  let t: TempDb;
  let idOf: (body: string) => Promise<string>;
  beforeAll(async () => {
    t = await demoWithDistinctTimes();
    idOf = async (body) => (await t.db.select({ id: facts.id }).from(facts).where(eq(facts.body, body)))[0].id;
  });
  afterAll(() => t.close());

  it("getVisibleFact gives the fact to whoever may see it, and null otherwise, as for a missing one", async () => {
    const budget = await idOf(DEMO_FACTS.budget);
    const max = { workspaceId: "acme", id: "max" };
    const ana = { workspaceId: "acme", id: "ana" };
    expect((await getVisibleFact(t.db, max, "scout", budget))?.body).toBe(DEMO_FACTS.budget);
    expect(await getVisibleFact(t.db, ana, "scout", budget)).toBeNull();
    expect(await getVisibleFact(t.db, ana, "scout", "fact_missing")).toBeNull();
    // Owners see no one's person facts.
    expect(await getVisibleFact(t.db, { workspaceId: "acme", id: "olivia" }, "scout", await idOf(DEMO_FACTS.anaPerson))).toBeNull();
    // The right id under the wrong agent, or from another workspace, is nothing.
    expect(await getVisibleFact(t.db, max, "echo", budget)).toBeNull();
    expect(await getVisibleFact(t.db, { workspaceId: "globex", id: "gina" }, "scout", await idOf(DEMO_FACTS.sso))).toBeNull();
    expect(await getVisibleFact(t.db, { workspaceId: "acme", id: "gina" }, "scout", await idOf(DEMO_FACTS.sso))).toBeNull();
  });

  it("factHistory shows the events to whoever may see the fact, and nothing to anyone else", async () => {
    const budget = await idOf(DEMO_FACTS.budget);
    const max = { workspaceId: "acme", id: "max" };
    const corrected = await correctFact(
      t.db,
      { ...max, name: "Max Mills", handle: "max" },
      "scout",
      budget,
      1,
      "The Q3 budget freeze lifts in November.",
    );
    expect(corrected.status).toBe("corrected");

    const history = await factHistory(t.db, max, "scout", budget);
    expect(history.map((e) => [e.kind, e.actorName, e.actorKind, e.before, e.after])).toEqual([
      ["remember", "Scout", "agent", null, DEMO_FACTS.budget],
      ["correct", "Max Mills", "user", DEMO_FACTS.budget, "The Q3 budget freeze lifts in November."],
    ]);
    expect(await factHistory(t.db, { workspaceId: "acme", id: "olivia" }, "scout", budget)).toHaveLength(2);
    expect(await factHistory(t.db, { workspaceId: "acme", id: "ana" }, "scout", budget)).toEqual([]);
    expect(await factHistory(t.db, { workspaceId: "acme", id: "gus" }, "scout", budget)).toEqual([]);
    expect(await factHistory(t.db, { workspaceId: "acme", id: "olivia" }, "scout", await idOf(DEMO_FACTS.anaPerson))).toEqual([]);
    expect(await factHistory(t.db, max, "echo", budget)).toEqual([]);
    expect(await factHistory(t.db, max, "scout", "fact_missing")).toEqual([]);
  });
});

// --- Random workspaces: SQL visibility and recall equal the pure rules ---

describe("random workspaces", () => {
  let t: TempDb;
  const PEOPLE = ["p0", "p1", "p2", "p3", "p4", "p5"];
  const WORKSPACES = ["w1", "w2"];
  const AGENTS = [
    { id: "a1", workspaceId: "w1" },
    { id: "a2", workspaceId: "w2" },
  ];
  const CHANNEL_IDS = ["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"];
  const TIMES = ["2026-04-01T00:00:00.000Z", "2026-04-02T00:00:00.000Z", "2026-04-03T00:00:00.000Z", "2026-04-04T00:00:00.000Z"];

  beforeAll(async () => {
    t = await createTempDb();
    await t.db.insert(users).values(PEOPLE.map((id) => ({ id, name: `Person ${id}`, email: `${id}@example.test` })));
  });
  afterAll(() => t.close());

  type World = typeof world extends fc.Arbitrary<infer T> ? T : never;
  const world = fc.record({
    // For each person and workspace: not a member, member, or owner.
    roles: fc.array(fc.array(fc.constantFrom(null, "member", "owner"), { minLength: 2, maxLength: 2 }), {
      minLength: PEOPLE.length,
      maxLength: PEOPLE.length,
    }),
    channels: fc.uniqueArray(
      fc.record({
        id: fc.constantFrom(...CHANNEL_IDS),
        workspace: fc.nat(1),
        kind: fc.constantFrom("public" as const, "private" as const, "dm" as const),
        members: fc.subarray(PEOPLE),
      }),
      { selector: (c) => c.id, maxLength: CHANNEL_IDS.length },
    ),
    facts: fc.array(
      fc.record({
        agent: fc.nat(1),
        // Now and then a fact whose workspace is not its agent's: still never crosses.
        otherWorkspace: fc.nat(9).map((n) => n === 0),
        scope: fc.constantFrom("workspace" as const, "channel" as const, "person" as const),
        channelRef: fc.constantFrom(...CHANNEL_IDS, "ghost"),
        personRef: fc.constantFrom(...PEOPLE, "ghost"),
        pinned: fc.boolean(),
        time: fc.constantFrom(...TIMES),
        forgotten: fc.nat(9).map((n) => n < 3),
        proposed: fc.nat(9).map((n) => n < 2),
      }),
      { maxLength: 90 },
    ),
  });

  async function build(w: World) {
    for (const table of ["fact_events", "facts", "channel_members", "channels", "agents", "memberships", "workspaces"]) {
      await t.db.run(sql.raw(`DELETE FROM ${table}`));
    }
    await t.db.insert(workspaces).values(WORKSPACES.map((id) => ({ id, name: id })));
    const memberRows = PEOPLE.flatMap((userId, p) =>
      WORKSPACES.flatMap((workspaceId, w2) => {
        const role = w.roles[p][w2];
        return role ? [{ workspaceId, userId, role }] : [];
      }),
    );
    if (memberRows.length) await t.db.insert(memberships).values(memberRows);
    const isMember = (ws: string, userId: string) => memberRows.some((m) => m.workspaceId === ws && m.userId === userId);
    if (w.channels.length) {
      await t.db.insert(channels).values(
        w.channels.map((c) => ({ id: c.id, workspaceId: WORKSPACES[c.workspace], name: c.id, kind: c.kind })),
      );
      const cm = w.channels.flatMap((c) =>
        c.members
          .filter((userId) => isMember(WORKSPACES[c.workspace], userId))
          .map((userId) => ({ channelId: c.id, workspaceId: WORKSPACES[c.workspace], userId })),
      );
      if (cm.length) await t.db.insert(channelMembers).values(cm);
    }
    await t.db.insert(agents).values(AGENTS.map((a) => ({ ...a, handle: a.id, name: a.id })));
    const rows = w.facts.map((f, i) => {
      const agent = AGENTS[f.agent];
      const workspaceId = f.otherWorkspace ? WORKSPACES[1 - f.agent] : agent.workspaceId;
      const scopeRef = f.scope === "workspace" ? "" : f.scope === "channel" ? f.channelRef : f.personRef;
      return factRow({
        body: `Random fact ${i}.`,
        agentId: agent.id,
        workspaceId,
        scope: f.scope,
        scopeRef,
        pinned: f.pinned,
        updatedAt: f.time,
        forgottenAt: f.forgotten ? "2026-04-05T00:00:00.000Z" : null,
        proposedAt: f.proposed ? "2026-04-01T00:00:00.000Z" : null,
        proposalReason: f.proposed ? "setting" : null,
      });
    });
    await insertFacts(t.db, rows);
  }

  it("listVisibleFacts, countVisibleFacts, getVisibleFact and pagination equal visibleTo for every person", async () => {
    // How often each kind of fact was seen, so the runs are known to have exercised every rule.
    const shown = { workspace: 0, channel: 0, person: 0, hidden: 0 };
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        await build(w);
        for (const agent of AGENTS) {
          const everything = await allFactsOf(t.db, agent.id);
          for (const workspaceId of WORKSPACES) {
            for (const userId of PEOPLE) {
              const viewer = { workspaceId, id: userId };
              const expected = await expectedVisible(t.db, workspaceId, userId, agent.id);
              const listed = await listVisibleFacts(t.db, viewer, agent.id, { limit: 1000 });
              expect(ids(listed.facts)).toEqual(ids(expected));
              for (const fact of expected) shown[fact.scope] += 1;
              shown.hidden += everything.length - expected.length;
              expect(ids((await walkPages(t.db, viewer, agent.id, 4)).facts)).toEqual(ids(expected));
              const counts = await countVisibleFacts(t.db, viewer, agent.id);
              expect(counts.workspace + counts.channel + counts.person).toBe(expected.length);
              // getVisibleFact agrees with the rule on every fact, forgotten ones and proposals included.
              const pure = await viewerFromTables(t.db, workspaceId, userId);
              for (const fact of everything) {
                const got = await getVisibleFact(t.db, viewer, agent.id, fact.id);
                expect(got !== null).toBe(pure !== null && shownTo(fact, pure));
              }
            }
          }
        }
      }),
      // A fixed seed whose sample shows facts of every scope (15 channel facts among them): with proposals
      // and forgotten facts in the mix, some samples of 30 show no channel fact, and the coverage check below
      // would then fail for the sample, not for a bug (seed 20261201 is one).
      { numRuns: 30, seed: 7 },
    );
    expect(shown.workspace).toBeGreaterThan(0);
    expect(shown.channel).toBeGreaterThan(0);
    expect(shown.person).toBeGreaterThan(0);
    expect(shown.hidden).toBeGreaterThan(0);
  });

  it("recall equals the pure rule in every place anyone can ask from", async () => {
    await fc.assert(
      fc.asyncProperty(world, async (w) => {
        await build(w);
        for (const channel of w.channels) {
          const workspaceId = WORKSPACES[channel.workspace];
          const askers: (string | null)[] = [null, ...PEOPLE];
          for (const asker of askers) {
            let place: Place;
            try {
              place = await placeOf(t.db, workspaceId, channel.id, asker);
            } catch {
              continue; // a refused place recalls nothing; place.test.ts covers refusals
            }
            for (const agent of AGENTS) {
              const recalled = await recall(t.db, agent.id, place);
              expect(ids(recalled)).toEqual(ids(await expectedRecall(t.db, agent.id, place)));
            }
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it("recall keeps the limit and the order when a place has more than 40 candidates", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            scope: fc.constantFrom("workspace" as const, "channel" as const, "person" as const),
            pinned: fc.nat(9).map((n) => n < 3),
            time: fc.constantFrom(...TIMES),
          }),
          { minLength: 30, maxLength: 150 },
        ),
        async (spec) => {
          await build({
            roles: PEOPLE.map(() => ["member", null]),
            channels: [{ id: "c0", workspace: 0, kind: "dm", members: ["p0"] }],
            facts: [],
          });
          await insertFacts(
            t.db,
            spec.map((f, i) =>
              factRow({
                body: `Crowded fact ${i}.`,
                agentId: "a1",
                workspaceId: "w1",
                scope: f.scope,
                scopeRef: f.scope === "workspace" ? "" : f.scope === "channel" ? "c0" : i % 2 ? "p0" : "p1",
                pinned: f.pinned,
                updatedAt: f.time,
              }),
            ),
          );
          const place = await placeOf(t.db, "w1", "c0", "p0");
          const recalled = await recall(t.db, "a1", place);
          const expected = await expectedRecall(t.db, "a1", place);
          expect(recalled.length).toBeLessThanOrEqual(RECALL_LIMIT);
          expect(ids(recalled)).toEqual(ids(expected));
        },
      ),
      { numRuns: 30 },
    );
  });
});
