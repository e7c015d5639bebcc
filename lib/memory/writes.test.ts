/**
 * Changing facts on a real database: remember (dedupe, secrets, the 2,000 limit
 * under concurrency, also across two clients), people's corrections, pins,
 * forgetting, restoring and purging, and an agent's forget from where it is
 * (agentMayForget in rules.ts). Every refusal must leave the database as it was.
 */
import { describe, expect, it } from "vitest";
import { and, count, eq, isNull, sql } from "drizzle-orm";
import { openDatabase, type Db } from "@/db/client";
import { factEvents, facts } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { derivePlace } from "./place";
import { MAX_FACT, MAX_FACTS, type Place } from "./rules";
import { LIVE_COUNT_SQL, liveFactCount, recall } from "./store";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { sectionLine } from "./prompt-section";
import { sizedLine, storedLineSize } from "./token-budget";
import {
  agentForget,
  correctFact,
  forgetFact,
  purgeExpired,
  purgeFact,
  remember,
  restoreFact,
  setPinned,
  type PersonActor,
  type NewFact,
} from "./writes";


const OLIVIA: PersonActor = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
const MAX_P: PersonActor = { workspaceId: "acme", id: "max", name: "Max Mills", handle: "max" };
const ANA_P: PersonActor = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };
const GUS_P: PersonActor = { workspaceId: "acme", id: "gus", name: "Gus Gray", handle: "gus" };
const GINA_IN_ACME: PersonActor = { workspaceId: "acme", id: "gina", name: "Gina Grant", handle: "gina" };
const GINA: PersonActor = { workspaceId: "globex", id: "gina", name: "Gina Grant", handle: "gina" };
const SCOUT = { kind: "agent" as const, id: "scout", name: "Scout" };

const t = tempDbForTests({ demo: true, each: true });

// --- Helpers ---

async function idOf(body: string, db: Db = t.db): Promise<string> {
  const [row] = await db.select({ id: facts.id }).from(facts).where(eq(facts.body, body));
  if (!row) throw new Error(`no fact "${body}"`);
  return row.id;
}

async function factById(id: string) {
  const [row] = await t.db.select().from(facts).where(eq(facts.id, id));
  return row;
}

async function eventsOf(id: string) {
  return t.db.select().from(factEvents).where(eq(factEvents.factId, id)).orderBy(factEvents.id);
}

/** Everything a change could touch: every fact row as stored, and every event. */
async function snapshot() {
  return {
    facts: await t.db.select().from(facts).orderBy(facts.seq),
    events: await t.db.select().from(factEvents).orderBy(factEvents.id),
  };
}

/** Runs a refusal and checks it left the database exactly as it was. */
async function unchangedBy<T>(act: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await act();
  expect(await snapshot()).toEqual(before);
  return result;
}

async function liveCount(agentId = "scout", db: Db = t.db): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(facts)
    .where(and(eq(facts.agentId, agentId), isNull(facts.forgottenAt)));
  return row.n;
}

async function placeOf(channelId: string, askerId: string | null, workspaceId = "acme"): Promise<Place> {
  return (await derivePlace(t.db, workspaceId, channelId, askerId)).place;
}

/** What an agent remembers from a channel of acme, as the API would build it. */
function agentRemembers(body: unknown, where: Partial<NewFact> = {}): NewFact {
  return {
    agentId: "scout",
    workspaceId: "acme",
    body,
    scope: "workspace",
    scopeRef: "",
    scopeLabel: null,
    source: { kind: "message", ref: null, label: "@max in #general", channelId: "general" },
    by: SCOUT,
    pinned: false,
    ...where,
  };
}

/** Adds `n` live channel facts to scout in one INSERT, so limits can be reached quickly. */
async function bulkInsert(n: number, prefix: string, forgottenAt: string | null = null) {
  await t.db.run(sql`
    INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, scope_label, body, body_key,
      source_kind, created_by, created_by_kind, pinned, created_at, updated_at, forgotten_at)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n})
    SELECT ${prefix} || '_' || i, 'scout', 'acme', 'channel', 'support', '#support',
      'Bulk fact ' || ${prefix} || ' ' || i || '.', 'bulk fact ' || ${prefix} || ' ' || i,
      'message', 'scout', 'agent', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ${forgottenAt}
    FROM n`);
}

const MINUTE_IN_DAYS = 1 / (24 * 60);

function daysAgo(days: number): string {
  return new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString();
}

// --- remember ---

describe("remember", () => {
  it("creates the fact and records a 'remember' event", async () => {
    const result = await remember(
      t.db,
      agentRemembers("  Standups are at 9:30,\n  on Zoom. ", {
        scope: "channel",
        scopeRef: "support",
        scopeLabel: "#support",
        source: { kind: "message", ref: "msg_1", label: "@ana in #support", channelId: "support" },
      }),
    );
    expect(result.status).toBe("created");
    if (result.status !== "created") return;
    const stored = await factById(result.fact.id);
    expect(stored).toMatchObject({
      agentId: "scout",
      workspaceId: "acme",
      scope: "channel",
      scopeRef: "support",
      scopeLabel: "#support",
      body: "Standups are at 9:30, on Zoom.",
      sourceKind: "message",
      sourceRef: "msg_1",
      sourceLabel: "@ana in #support",
      sourceChannelId: "support",
      createdBy: "scout",
      createdByKind: "agent",
      pinned: false,
      version: 1,
      forgottenAt: null,
      correctedAt: null,
    });
    expect(stored.updatedAt).toBe(stored.createdAt);
    expect(result.fact.body).toBe("Standups are at 9:30, on Zoom.");
    expect((await eventsOf(result.fact.id)).map((e) => [e.kind, e.actorId, e.actorKind, e.actorName, e.before, e.after])).toEqual([
      ["remember", "scout", "agent", "Scout", null, "Standups are at 9:30, on Zoom."],
    ]);
    expect(await liveCount()).toBe(9);
    // It is recalled where it belongs.
    expect((await recall(t.db, "scout", await placeOf("support", "ana"))).map((f) => f.body)).toContain(
      "Standups are at 9:30, on Zoom.",
    );
  });

  it("stores a workspace fact with an empty scope ref whatever ref was given", async () => {
    const result = await remember(t.db, agentRemembers("Office closes at six.", { scopeRef: "general" }));
    expect(result.status).toBe("created");
    if (result.status === "created") expect((await factById(result.fact.id)).scopeRef).toBe("");
  });

  it("cuts text over 500 characters to 499 and an ellipsis", async () => {
    const result = await remember(t.db, agentRemembers("word ".repeat(200)));
    expect(result.status).toBe("created");
    if (result.status !== "created") return;
    expect(result.fact.body).toHaveLength(MAX_FACT);
    expect(result.fact.body.endsWith("…")).toBe(true);
  });

  it("a duplicate (case, spacing, trailing punctuation) in the same scope and ref refreshes instead of adding", async () => {
    const first = await remember(t.db, agentRemembers("Deploys need two approvals.", { scope: "channel", scopeRef: "support" }));
    expect(first.status).toBe("created");
    if (first.status !== "created") return;
    // Make the original visibly old, so the refresh shows.
    await t.db.update(facts).set({ updatedAt: "2026-01-01T00:00:00.000Z" }).where(eq(facts.id, first.fact.id));
    const before = await t.db.select({ n: count() }).from(facts);

    for (const variant of ["deploys NEED two approvals", "  Deploys  need\ntwo approvals!!! ", "DEPLOYS NEED TWO APPROVALS…"]) {
      const again = await remember(t.db, agentRemembers(variant, { scope: "channel", scopeRef: "support" }));
      expect(again.status).toBe("deduplicated");
      if (again.status !== "deduplicated") return;
      expect(again.fact.id).toBe(first.fact.id);
      expect(again.fact.body).toBe("Deploys need two approvals.");
      expect(again.fact.updatedAt > "2026-01-01T00:00:00.000Z").toBe(true);
    }
    expect(await t.db.select({ n: count() }).from(facts)).toEqual(before);
    const stored = await factById(first.fact.id);
    expect(stored.updatedAt > "2026-01-01T00:00:00.000Z").toBe(true);
    expect(stored.body).toBe("Deploys need two approvals.");
    // Each refresh is in the history.
    expect((await eventsOf(first.fact.id)).map((e) => e.kind)).toEqual(["remember", "remember", "remember", "remember"]);
  });

  it("the same text in another scope or another ref is a new fact", async () => {
    const text = "Deploys need two approvals.";
    const results = [
      await remember(t.db, agentRemembers(text, { scope: "channel", scopeRef: "support" })),
      await remember(t.db, agentRemembers(text, { scope: "channel", scopeRef: "general" })),
      await remember(t.db, agentRemembers(text.toUpperCase(), { scope: "workspace", scopeRef: "" })),
      await remember(t.db, agentRemembers(text, { scope: "person", scopeRef: "ana" })),
      await remember(t.db, agentRemembers(text, { scope: "person", scopeRef: "max" })),
    ];
    expect(results.map((r) => r.status)).toEqual(["created", "created", "created", "created", "created"]);
    expect(await t.db.select({ n: count() }).from(facts).where(eq(facts.bodyKey, "deploys need two approvals"))).toEqual([
      { n: 5 },
    ]);
  });

  it("a seeded fact said again is refreshed, and a person re-telling it also pins it", async () => {
    const sso = await idOf(DEMO_FACTS.sso);
    const again = await remember(t.db, agentRemembers("the enterprise plan includes sso"));
    expect(again).toMatchObject({ status: "deduplicated", fact: { id: sso, pinned: false } });
    const told = await remember(
      t.db,
      agentRemembers("The Enterprise plan includes SSO!", {
        by: { kind: "user", id: "olivia", name: "Olivia Owen" },
        source: { kind: "person", ref: "olivia", label: "@olivia", channelId: null },
        pinned: true,
      }),
    );
    expect(told).toMatchObject({ status: "deduplicated", fact: { id: sso, pinned: true } });
    expect((await eventsOf(sso)).map((e) => [e.kind, e.actorId])).toEqual([
      ["remember", "scout"],
      ["remember", "scout"],
      ["remember", "olivia"],
      ["pin", "olivia"],
    ]);
  });

  it("a forgotten twin does not swallow the fact: it is kept anew", async () => {
    await forgetFact(t.db, ANA_P, "scout", await idOf(DEMO_FACTS.anaPerson));
    const again = await remember(t.db, agentRemembers(DEMO_FACTS.anaPerson, { scope: "person", scopeRef: "ana" }));
    expect(again.status).toBe("created");
    expect(await t.db.select({ n: count() }).from(facts).where(eq(facts.body, DEMO_FACTS.anaPerson))).toEqual([{ n: 2 }]);
  });

  it("a rule the writer must pass is checked in the write's transaction: failing it writes nothing", async () => {
    const seen: number[] = [];
    const refused = await unchangedBy(() =>
      remember(t.db, agentRemembers("Not for this writer."), async (writes) => {
        const [live] = await writes.all<{ n: number }>(LIVE_COUNT_SQL, ["scout"]);
        seen.push(live.n);
        return false;
      }),
    );
    expect(refused).toEqual({ status: "not_allowed" });
    expect(seen).toEqual([8]);
    // Not even a twin is refreshed.
    expect(await unchangedBy(() => remember(t.db, agentRemembers(DEMO_FACTS.sso), async () => false))).toEqual({
      status: "not_allowed",
    });
    expect((await remember(t.db, agentRemembers("For this writer."), async () => true)).status).toBe("created");
  });

  it("refuses text that looks like a credential, and writes nothing", async () => {
    for (const secret of [
      "The OpenAI key is sk-proj-abcdefghijklmnop1234567890",
      "CI uses ghp_abcdefghijklmnopqrstuvwxyz0123456789",
      "db password=hunter2hunter2",
      "AWS key AKIAABCDEFGHIJKLMNOP for uploads",
      "-----BEGIN RSA PRIVATE KEY----- MIIEpAIBAAKCAQEA",
    ]) {
      const result = await unchangedBy(() => remember(t.db, agentRemembers(secret)));
      expect(result.status).toBe("looks_like_secret");
      if (result.status === "looks_like_secret") expect(result.what).toMatch(/key|token|password/i);
    }
  });

  it("refuses blank text and non-strings as invalid_fact, and writes nothing", async () => {
    for (const blank of ["", "   ", "\n\t \n", null, 42, { text: "hi" }]) {
      expect(await unchangedBy(() => remember(t.db, agentRemembers(blank)))).toEqual({ status: "invalid_fact" });
    }
  });
});

// --- The limit: it holds for agents and people alike, under concurrency ---

describe("the 2,000-fact limit", () => {
  it("50 concurrent writers at 1,990 make exactly 2,000; the rest are memory_full", async () => {
    await bulkInsert(1990 - 8, "bulk");
    await bulkInsert(25, "gone", daysAgo(1)); // forgotten facts do not count
    expect(await liveCount()).toBe(1990);

    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => remember(t.db, agentRemembers(`Concurrent fact number ${i}.`))),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === "created")).toHaveLength(10);
    expect(statuses.filter((s) => s === "memory_full")).toHaveLength(40);
    expect(await liveCount()).toBe(MAX_FACTS);
    expect(await liveFactCount(t.db, "scout")).toBe(MAX_FACTS);
    // Only the created ones have events.
    expect(await t.db.select({ n: count() }).from(factEvents).where(sql`${factEvents.after} LIKE 'Concurrent fact number %'`)).toEqual([
      { n: 10 },
    ]);
  });

  it("holds for people too, counts only live facts, and frees a place when one is forgotten", async () => {
    await bulkInsert(MAX_FACTS - 8, "bulk");
    expect(await liveCount()).toBe(MAX_FACTS);
    const byPerson = agentRemembers("Ana's team ships on Fridays.", {
      scope: "person",
      scopeRef: "ana",
      by: { kind: "user", id: "ana", name: "Ana Alves" },
      source: { kind: "person", ref: "ana", label: "@ana", channelId: null },
      pinned: true,
    });
    expect(await unchangedBy(() => remember(t.db, byPerson))).toEqual({ status: "memory_full" });
    expect(await unchangedBy(() => remember(t.db, agentRemembers("One too many.")))).toEqual({ status: "memory_full" });
    // A duplicate adds nothing, so it is still refreshed at the limit.
    expect((await remember(t.db, agentRemembers("the enterprise plan includes SSO"))).status).toBe("deduplicated");
    // Another agent's memory is its own.
    expect(
      (await remember(t.db, { ...agentRemembers("Globex closes in August."), agentId: "echo", workspaceId: "globex" })).status,
    ).toBe("created");

    expect(await forgetFact(t.db, ANA_P, "scout", await idOf(DEMO_FACTS.anaPerson))).toEqual({ status: "forgotten" });
    expect((await remember(t.db, byPerson)).status).toBe("created");
    expect(await liveCount()).toBe(MAX_FACTS);
    expect((await remember(t.db, agentRemembers("Still too many."))).status).toBe("memory_full");
  });

  it("holds across two clients on the same file racing each other", async () => {
    const other = await openDatabase(t.url);
    try {
      await bulkInsert(1990 - 8, "bulk");
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          remember(i % 2 ? other : t.db, agentRemembers(`Raced fact number ${i}.`)),
        ),
      );
      expect(results.filter((r) => r.status === "created")).toHaveLength(10);
      expect(results.filter((r) => r.status === "memory_full")).toHaveLength(30);
      expect(await liveCount("scout", t.db)).toBe(MAX_FACTS);
      expect(await liveCount("scout", other)).toBe(MAX_FACTS);
    } finally {
      other.$client.close();
    }
  });

  it("two writers at 1,999 make 2,000: an agent's remember and a person's, whose rule runs in a Drizzle transaction", async () => {
    await bulkInsert(1999 - 8, "bulk");
    const byPerson = agentRemembers("Ana's team ships on Fridays.", {
      scope: "person",
      scopeRef: "ana",
      by: { kind: "user", id: "ana", name: "Ana Alves" },
      source: { kind: "person", ref: "ana", label: "@ana", channelId: null },
      pinned: true,
    });
    const results = await Promise.all([
      remember(t.db, agentRemembers("The agent's fact at 1,999.")),
      remember(t.db, byPerson, async () => true),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["created", "memory_full"]);
    expect(await liveCount()).toBe(MAX_FACTS);
  });

  it("a statement that fails rolls back the whole remember and lets the next write in", async () => {
    // An unknown workspace breaks the facts row's foreign key after the twin and limit checks passed.
    const broken = { ...agentRemembers("A fact for no workspace."), workspaceId: "no-such-workspace" };
    const before = await snapshot();
    await expect(remember(t.db, broken)).rejects.toThrow(/FOREIGN KEY/);
    expect(await snapshot()).toEqual(before);
    expect((await remember(t.db, agentRemembers("Kept after the failure."))).status).toBe("created");
    expect((await setPinned(t.db, OLIVIA, "scout", await idOf("Kept after the failure."), true)).status).toBe("pinned");
  });

  it("restoring at the limit is memory_full and changes nothing", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    await forgetFact(t.db, ANA_P, "scout", ana);
    await bulkInsert(MAX_FACTS - 7, "bulk");
    expect(await liveCount()).toBe(MAX_FACTS);
    expect(await unchangedBy(() => restoreFact(t.db, ANA_P, "scout", ana))).toEqual({ status: "memory_full" });
  });
});

// --- The line's size kept with the row ---

describe("a fact's line size (token-budget.ts)", () => {
  const exact = (row: typeof facts.$inferSelect) => {
    const sized = sizedLine(row);
    return [sized.last, sized.inside, countTokens(sectionLine(row)), countTokens(`${sectionLine(row)}\n`)];
  };

  it("is stored by remember and by a correction for the line as recall writes it; a pin leaves one recall does not use", async () => {
    const result = await remember(t.db, agentRemembers("Deploys freeze on Fridays after 3 pm."));
    if (result.status !== "created") throw new Error(result.status);
    let row = await factById(result.fact.id);
    expect(row.lineSize).not.toBeNull();
    expect(row.lineSize).toBe(storedLineSize(row));
    const [last, inside, tokens, withNewline] = exact(row);
    expect([last, inside]).toEqual([tokens, withNewline]);

    expect((await correctFact(t.db, OLIVIA, "scout", row.id, 1, "Deploys freeze on Thursdays after noon, not Fridays.")).status).toBe("corrected");
    row = await factById(row.id);
    expect(row.lineSize).toBe(storedLineSize(row));

    // Pinning adds ", pinned" to the line and keeps the old size: recall counts the new line instead.
    expect((await setPinned(t.db, OLIVIA, "scout", row.id, true)).status).toBe("pinned");
    row = await factById(row.id);
    expect(row.lineSize).not.toBe(storedLineSize(row));
    const [lastPinned, insidePinned, tokensPinned, withNewlinePinned] = exact(row);
    expect([lastPinned, insidePinned]).toEqual([tokensPinned, withNewlinePinned]);
  });
});

// --- People's changes ---

describe("correctFact", () => {
  it("corrects from the right version: the corrector becomes the source, who kept it stays", async () => {
    const refunds = await idOf(DEMO_FACTS.refunds);
    const result = await correctFact(t.db, ANA_P, "scout", refunds, 1, "Refunds over $300 need a manager's approval.");
    expect(result.status).toBe("corrected");
    const stored = await factById(refunds);
    expect(stored).toMatchObject({
      body: "Refunds over $300 need a manager's approval.",
      sourceKind: "person",
      sourceRef: "ana",
      sourceLabel: "@ana",
      createdBy: "scout",
      createdByKind: "agent",
      version: 2,
      scope: "channel",
      scopeRef: "support",
    });
    expect(stored.correctedAt).not.toBeNull();
    expect(stored.updatedAt).toBe(stored.correctedAt);
    const events = await eventsOf(refunds);
    expect(events.map((e) => [e.kind, e.actorId, e.actorKind, e.actorName, e.before, e.after])).toEqual([
      ["remember", "scout", "agent", "Scout", null, DEMO_FACTS.refunds],
      ["correct", "ana", "user", "Ana Alves", DEMO_FACTS.refunds, "Refunds over $300 need a manager's approval."],
    ]);
    // The next edit starts from version 2.
    expect((await correctFact(t.db, MAX_P, "scout", refunds, 2, "Refunds over $250 need approval.")).status).toBe(
      "corrected",
    );
    expect(await factById(refunds)).toMatchObject({ version: 3, sourceLabel: "@max", body: "Refunds over $250 need approval." });
  });

  it("an owner corrects a workspace fact", async () => {
    const sso = await idOf(DEMO_FACTS.sso);
    expect((await correctFact(t.db, OLIVIA, "scout", sso, 1, "The Business plan includes SSO.")).status).toBe("corrected");
    expect(await factById(sso)).toMatchObject({ body: "The Business plan includes SSO.", sourceLabel: "@olivia", version: 2 });
  });

  it("a stale edit is refused with the current text, and nothing changes", async () => {
    const refunds = await idOf(DEMO_FACTS.refunds);
    await correctFact(t.db, ANA_P, "scout", refunds, 1, "Refunds over $300 need a manager's approval.");
    const stale = await unchangedBy(() => correctFact(t.db, MAX_P, "scout", refunds, 1, "Refunds need nothing."));
    expect(stale).toEqual({
      status: "stale",
      current: { body: "Refunds over $300 need a manager's approval.", version: 2 },
    });
    // A version from the future is stale too.
    expect((await unchangedBy(() => correctFact(t.db, MAX_P, "scout", refunds, 7, "Refunds need nothing."))).status).toBe(
      "stale",
    );
  });

  it("refuses people who may not change the fact with not_found, and nothing changes", async () => {
    const refusals: [PersonActor, string][] = [
      [MAX_P, DEMO_FACTS.releases], // a member, a workspace fact
      [ANA_P, DEMO_FACTS.sso], // a member, a workspace fact
      [ANA_P, DEMO_FACTS.budget], // can't see leadership
      [GUS_P, DEMO_FACTS.pairing], // not in the group DM
      [OLIVIA, DEMO_FACTS.anaPerson], // owners do not see other people's person facts
      [OLIVIA, DEMO_FACTS.pairing], // nor conversations they are not in
      [MAX_P, DEMO_FACTS.anaPerson], // another person's person fact
      [GINA_IN_ACME, DEMO_FACTS.sso], // not a member of acme
      [GINA, DEMO_FACTS.sso], // another workspace
    ];
    for (const [who, body] of refusals) {
      const id = await idOf(body);
      expect(await unchangedBy(() => correctFact(t.db, who, "scout", id, 1, "Something else entirely."))).toEqual({
        status: "not_found",
      });
    }
    // The wrong agent and a missing fact get the same answer.
    const sso = await idOf(DEMO_FACTS.sso);
    expect(await unchangedBy(() => correctFact(t.db, OLIVIA, "echo", sso, 1, "Nope."))).toEqual({ status: "not_found" });
    const globex = await idOf(DEMO_FACTS.globex);
    expect(await unchangedBy(() => correctFact(t.db, OLIVIA, "scout", globex, 1, "Nope."))).toEqual({ status: "not_found" });
    expect(await unchangedBy(() => correctFact(t.db, OLIVIA, "echo", globex, 1, "Nope."))).toEqual({ status: "not_found" });
    expect(await unchangedBy(() => correctFact(t.db, OLIVIA, "scout", "fact_missing", 1, "Nope."))).toEqual({
      status: "not_found",
    });
  });

  it("refuses secrets, blanks and a text that would duplicate another fact, changing nothing", async () => {
    const refunds = await idOf(DEMO_FACTS.refunds);
    expect((await unchangedBy(() => correctFact(t.db, ANA_P, "scout", refunds, 1, "token=abcd1234efgh"))).status).toBe(
      "looks_like_secret",
    );
    expect(await unchangedBy(() => correctFact(t.db, ANA_P, "scout", refunds, 1, "   "))).toEqual({ status: "invalid_fact" });
    await remember(t.db, agentRemembers("Support hours are 9 to 5.", { scope: "channel", scopeRef: "support" }));
    expect(
      await unchangedBy(() => correctFact(t.db, ANA_P, "scout", refunds, 1, "support hours are 9 to 5")),
    ).toEqual({ status: "duplicate" });
    expect((await unchangedBy(() => correctFact(t.db, ANA_P, "scout", refunds, 1, DEMO_FACTS.refunds))).status).toBe("unchanged");
  });

  it("a forgotten fact cannot be corrected", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    await forgetFact(t.db, ANA_P, "scout", ana);
    expect(await unchangedBy(() => correctFact(t.db, ANA_P, "scout", ana, 1, "Ana prefers English."))).toEqual({
      status: "not_found",
    });
  });
});

describe("setPinned", () => {
  it("pins and unpins with events; pinning twice changes nothing and says so", async () => {
    const refunds = await idOf(DEMO_FACTS.refunds);
    expect(await setPinned(t.db, ANA_P, "scout", refunds, true)).toEqual({ status: "pinned" });
    expect((await factById(refunds)).pinned).toBe(true);
    expect(await unchangedBy(() => setPinned(t.db, MAX_P, "scout", refunds, true))).toEqual({ status: "unchanged" });
    expect(await setPinned(t.db, MAX_P, "scout", refunds, false)).toEqual({ status: "unpinned" });
    expect((await factById(refunds)).pinned).toBe(false);
    expect((await eventsOf(refunds)).map((e) => [e.kind, e.actorId, e.actorKind])).toEqual([
      ["remember", "scout", "agent"],
      ["pin", "ana", "user"],
      ["unpin", "max", "user"],
    ]);
    // A pinned fact comes first in recall.
    await setPinned(t.db, ANA_P, "scout", refunds, true);
    expect((await recall(t.db, "scout", await placeOf("support", "ana")))[0].pinned).toBe(true);
  });

  it("owners pin and unpin workspace facts; members may not", async () => {
    const releases = await idOf(DEMO_FACTS.releases);
    const sso = await idOf(DEMO_FACTS.sso);
    expect(await unchangedBy(() => setPinned(t.db, MAX_P, "scout", sso, true))).toEqual({ status: "not_found" });
    expect(await unchangedBy(() => setPinned(t.db, ANA_P, "scout", releases, false))).toEqual({ status: "not_found" });
    expect(await setPinned(t.db, OLIVIA, "scout", sso, true)).toEqual({ status: "pinned" });
    expect(await setPinned(t.db, OLIVIA, "scout", releases, false)).toEqual({ status: "unpinned" });
  });

  it("refuses people who may not change the fact, changing nothing", async () => {
    const refusals: [PersonActor, string][] = [
      [ANA_P, DEMO_FACTS.budget],
      [OLIVIA, DEMO_FACTS.anaPerson],
      [OLIVIA, DEMO_FACTS.maxPerson],
      [GUS_P, DEMO_FACTS.pairing],
      [GINA_IN_ACME, DEMO_FACTS.refunds],
      [GINA, DEMO_FACTS.refunds],
    ];
    for (const [who, body] of refusals) {
      const id = await idOf(body);
      for (const pinned of [true, false]) {
        expect(await unchangedBy(() => setPinned(t.db, who, "scout", id, pinned))).toEqual({ status: "not_found" });
      }
    }
    expect(await unchangedBy(() => setPinned(t.db, OLIVIA, "scout", "fact_missing", true))).toEqual({ status: "not_found" });
  });
});

describe("forgetFact, restoreFact, purgeFact, purgeExpired", () => {
  it("forgets: never recalled, not counted, in the history; a second forget is not_found", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    expect(await forgetFact(t.db, ANA_P, "scout", ana)).toEqual({ status: "forgotten" });
    expect((await factById(ana)).forgottenAt).not.toBeNull();
    expect(await liveCount()).toBe(7);
    expect((await recall(t.db, "scout", await placeOf("dm-ana", "ana"))).map((f) => f.body)).not.toContain(DEMO_FACTS.anaPerson);
    expect((await eventsOf(ana)).map((e) => [e.kind, e.actorId, e.before, e.after])).toEqual([
      ["remember", "scout", null, DEMO_FACTS.anaPerson],
      ["forget", "ana", DEMO_FACTS.anaPerson, null],
    ]);
    expect(await unchangedBy(() => forgetFact(t.db, ANA_P, "scout", ana))).toEqual({ status: "not_found" });
  });

  it("refuses to forget for people who may not change the fact, changing nothing", async () => {
    const refusals: [PersonActor, string][] = [
      [MAX_P, DEMO_FACTS.releases],
      [GUS_P, DEMO_FACTS.sso],
      [ANA_P, DEMO_FACTS.budget],
      [OLIVIA, DEMO_FACTS.anaPerson],
      [OLIVIA, DEMO_FACTS.pairing],
      [MAX_P, DEMO_FACTS.anaPerson],
      [GINA_IN_ACME, DEMO_FACTS.refunds],
      [GINA, DEMO_FACTS.sso],
    ];
    for (const [who, body] of refusals) {
      const id = await idOf(body);
      expect(await unchangedBy(() => forgetFact(t.db, who, "scout", id))).toEqual({ status: "not_found" });
    }
    const sso = await idOf(DEMO_FACTS.sso);
    expect(await unchangedBy(() => forgetFact(t.db, OLIVIA, "echo", sso))).toEqual({ status: "not_found" });
    expect(await unchangedBy(() => forgetFact(t.db, OLIVIA, "scout", "fact_missing"))).toEqual({ status: "not_found" });
    // An owner can forget a workspace fact.
    expect(await forgetFact(t.db, OLIVIA, "scout", await idOf(DEMO_FACTS.releases))).toEqual({ status: "forgotten" });
  });

  it("restores within 7 days, with an event; the fact is recalled again", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    await forgetFact(t.db, ANA_P, "scout", ana);
    // A minute before the grace period ends.
    await t.db.update(facts).set({ forgottenAt: daysAgo(7 - MINUTE_IN_DAYS) }).where(eq(facts.id, ana));
    expect(await unchangedBy(() => restoreFact(t.db, OLIVIA, "scout", ana))).toEqual({ status: "not_found" });
    expect(await unchangedBy(() => restoreFact(t.db, MAX_P, "scout", ana))).toEqual({ status: "not_found" });
    expect(await restoreFact(t.db, ANA_P, "scout", ana)).toEqual({ status: "restored" });
    expect((await factById(ana)).forgottenAt).toBeNull();
    expect((await eventsOf(ana)).map((e) => [e.kind, e.actorId, e.before, e.after])).toEqual([
      ["remember", "scout", null, DEMO_FACTS.anaPerson],
      ["forget", "ana", DEMO_FACTS.anaPerson, null],
      ["restore", "ana", null, DEMO_FACTS.anaPerson],
    ]);
    expect((await recall(t.db, "scout", await placeOf("dm-ana", "ana"))).map((f) => f.body)).toContain(DEMO_FACTS.anaPerson);
    // A live fact is not restorable.
    expect(await unchangedBy(() => restoreFact(t.db, ANA_P, "scout", ana))).toEqual({ status: "not_found" });
  });

  it("after 7 days a forgotten fact cannot be restored", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    await forgetFact(t.db, ANA_P, "scout", ana);
    for (const days of [8, 7 + MINUTE_IN_DAYS]) {
      await t.db.update(facts).set({ forgottenAt: daysAgo(days) }).where(eq(facts.id, ana));
      expect(await unchangedBy(() => restoreFact(t.db, ANA_P, "scout", ana))).toEqual({ status: "not_found" });
    }
  });

  it("restoring beside a live twin is refused as duplicate", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    await forgetFact(t.db, ANA_P, "scout", ana);
    await remember(t.db, agentRemembers("ana prefers replies in portuguese", { scope: "person", scopeRef: "ana" }));
    expect(await unchangedBy(() => restoreFact(t.db, ANA_P, "scout", ana))).toEqual({ status: "duplicate" });
  });

  it("only owners restore a forgotten workspace fact", async () => {
    const releases = await idOf(DEMO_FACTS.releases);
    await forgetFact(t.db, OLIVIA, "scout", releases);
    expect(await unchangedBy(() => restoreFact(t.db, MAX_P, "scout", releases))).toEqual({ status: "not_found" });
    expect(await restoreFact(t.db, OLIVIA, "scout", releases)).toEqual({ status: "restored" });
  });

  it("purges a forgotten fact with its history; a live fact or someone else's is not_found", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    expect(await unchangedBy(() => purgeFact(t.db, ANA_P, "scout", ana))).toEqual({ status: "not_found" });
    await forgetFact(t.db, ANA_P, "scout", ana);
    expect(await unchangedBy(() => purgeFact(t.db, OLIVIA, "scout", ana))).toEqual({ status: "not_found" });
    expect(await unchangedBy(() => purgeFact(t.db, MAX_P, "scout", ana))).toEqual({ status: "not_found" });
    expect(await unchangedBy(() => purgeFact(t.db, ANA_P, "echo", ana))).toEqual({ status: "not_found" });
    expect(await purgeFact(t.db, ANA_P, "scout", ana)).toEqual({ status: "purged" });
    expect(await factById(ana)).toBeUndefined();
    expect(await eventsOf(ana)).toEqual([]);
    expect(await restoreFact(t.db, ANA_P, "scout", ana)).toEqual({ status: "not_found" });
    // The other facts and their histories are untouched.
    expect(await liveCount()).toBe(7);
    expect(await t.db.select({ n: count() }).from(factEvents)).toEqual([{ n: 8 }]);
  });

  it("only owners purge a forgotten workspace fact", async () => {
    const sso = await idOf(DEMO_FACTS.sso);
    await forgetFact(t.db, OLIVIA, "scout", sso);
    expect(await unchangedBy(() => purgeFact(t.db, GUS_P, "scout", sso))).toEqual({ status: "not_found" });
    expect(await purgeFact(t.db, OLIVIA, "scout", sso)).toEqual({ status: "purged" });
  });

  it("purgeExpired removes facts forgotten more than 7 days ago and their events, and nothing else", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    const refunds = await idOf(DEMO_FACTS.refunds);
    const globex = await idOf(DEMO_FACTS.globex);
    await forgetFact(t.db, ANA_P, "scout", ana);
    await forgetFact(t.db, MAX_P, "scout", refunds);
    await forgetFact(t.db, GINA, "echo", globex);
    await t.db.update(facts).set({ forgottenAt: daysAgo(7 + MINUTE_IN_DAYS) }).where(eq(facts.id, ana));
    await t.db.update(facts).set({ forgottenAt: daysAgo(7 - MINUTE_IN_DAYS) }).where(eq(facts.id, refunds));
    await t.db.update(facts).set({ forgottenAt: daysAgo(30) }).where(eq(facts.id, globex));
    const eventsBefore = (await t.db.select().from(factEvents)).length;

    expect(await purgeExpired(t.db)).toBe(2);
    expect(await factById(ana)).toBeUndefined();
    expect(await factById(globex)).toBeUndefined();
    expect(await eventsOf(ana)).toEqual([]);
    expect(await eventsOf(globex)).toEqual([]);
    expect((await factById(refunds)).forgottenAt).not.toBeNull();
    expect(await eventsOf(refunds)).toHaveLength(2);
    expect(await liveCount()).toBe(6);
    expect((await t.db.select().from(factEvents)).length).toBe(eventsBefore - 4);
    // Nothing left to purge; a clock two minutes later purges the other one too.
    expect(await unchangedBy(() => purgeExpired(t.db))).toBe(0);
    expect(await purgeExpired(t.db, new Date(Date.now() + 2 * 60 * 1000))).toBe(1);
    expect(await factById(refunds)).toBeUndefined();
  });
});

// --- An agent's forget: never people's curation ---

describe("agentForget", () => {
  it("in dm-ana scout forgets ana's person fact it kept itself", async () => {
    const ana = await idOf(DEMO_FACTS.anaPerson);
    expect(await agentForget(t.db, SCOUT, ana, await placeOf("dm-ana", "ana"))).toBe("forgotten");
    expect((await factById(ana)).forgottenAt).not.toBeNull();
    expect((await eventsOf(ana)).map((e) => [e.kind, e.actorId, e.actorKind, e.actorName, e.before, e.after])).toEqual([
      ["remember", "scout", "agent", "Scout", null, DEMO_FACTS.anaPerson],
      ["forget", "scout", "agent", "Scout", DEMO_FACTS.anaPerson, null],
    ]);
    expect((await recall(t.db, "scout", await placeOf("dm-ana", "ana"))).map((f) => f.body)).not.toContain(DEMO_FACTS.anaPerson);
    // Forgotten is forgotten: a second forget is not_found.
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, ana, await placeOf("dm-ana", "ana")))).toBe("not_found");
  });

  it("forgets a channel fact it kept, in that channel (a group DM too)", async () => {
    expect(await agentForget(t.db, SCOUT, await idOf(DEMO_FACTS.pairing), await placeOf("group-max-ana", "max"))).toBe("forgotten");
    expect(await agentForget(t.db, SCOUT, await idOf(DEMO_FACTS.refunds), await placeOf("support", "gus"))).toBe("forgotten");
  });

  it("a workspace fact it kept itself: forbidden from a DM, forgotten from a public channel", async () => {
    const sso = await idOf(DEMO_FACTS.sso);
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, sso, await placeOf("dm-ana", "ana")))).toBe("forbidden");
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, sso, await placeOf("leadership", "olivia")))).toBe(
      "forbidden",
    );
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, sso, await placeOf("group-max-ana", "ana")))).toBe(
      "forbidden",
    );
    expect(await agentForget(t.db, SCOUT, sso, await placeOf("general", "max"))).toBe("forgotten");
    expect((await eventsOf(sso)).at(-1)).toMatchObject({ kind: "forget", actorId: "scout", before: DEMO_FACTS.sso });
  });

  it("a pinned fact is forbidden wherever it is recalled", async () => {
    const releases = await idOf(DEMO_FACTS.releases);
    for (const [channel, asker] of [
      ["general", "ana"],
      ["support", "gus"],
      ["dm-ana", "ana"],
    ] as const) {
      expect(await unchangedBy(async () => agentForget(t.db, SCOUT, releases, await placeOf(channel, asker)))).toBe(
        "forbidden",
      );
    }
    // Pinning an agent's own fact protects it too.
    const ana = await idOf(DEMO_FACTS.anaPerson);
    await setPinned(t.db, ANA_P, "scout", ana, true);
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, ana, await placeOf("dm-ana", "ana")))).toBe("forbidden");
  });

  it("a fact a person gave or corrected is forbidden even unpinned", async () => {
    const max = await idOf(DEMO_FACTS.maxPerson);
    await setPinned(t.db, MAX_P, "scout", max, false);
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, max, await placeOf("dm-max", "max")))).toBe("forbidden");
    const refunds = await idOf(DEMO_FACTS.refunds);
    await correctFact(t.db, ANA_P, "scout", refunds, 1, "Refunds over $300 need a manager's approval.");
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, refunds, await placeOf("support", "ana")))).toBe(
      "forbidden",
    );
  });

  it("a fact it could not recall here is not_found, exactly like a missing one", async () => {
    const cases: [string, string, string | null][] = [
      [DEMO_FACTS.maxPerson, "dm-ana", "ana"], // another person's person fact
      [DEMO_FACTS.anaPerson, "group-max-ana", "ana"], // ana's fact, but not a solo DM
      [DEMO_FACTS.anaPerson, "general", "ana"], // nor a public channel
      [DEMO_FACTS.budget, "support", "gus"], // another channel's fact
      [DEMO_FACTS.budget, "dm-max", "max"],
      [DEMO_FACTS.pairing, "dm-ana", "ana"],
    ];
    for (const [body, channel, asker] of cases) {
      const id = await idOf(body);
      expect(await unchangedBy(async () => agentForget(t.db, SCOUT, id, await placeOf(channel, asker)))).toBe("not_found");
    }
  });

  it("another agent's fact, or a missing id, is not_found", async () => {
    const globex = await idOf(DEMO_FACTS.globex);
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, globex, await placeOf("general", "ana")))).toBe(
      "not_found",
    );
    expect(
      await unchangedBy(async () => agentForget(t.db, SCOUT, globex, await placeOf("lobby", "gina", "globex"))),
    ).toBe("not_found");
    // echo is not scout, even for scout's facts in scout's places.
    const ana = await idOf(DEMO_FACTS.anaPerson);
    expect(
      await unchangedBy(async () =>
        agentForget(t.db, { kind: "agent", id: "echo", name: "Echo" }, ana, await placeOf("dm-ana", "ana")),
      ),
    ).toBe("not_found");
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, "fact_missing", await placeOf("general", "ana")))).toBe(
      "not_found",
    );
    expect(await unchangedBy(async () => agentForget(t.db, SCOUT, "", await placeOf("dm-ana", "ana")))).toBe("not_found");
  });
});
