/**
 * "Your data" on the demo (issue #16): what aboutPerson and exportPerson list is
 * exactly what the person may see — never a fact of a channel they cannot read —
 * and erasure and account deletion do what their dry runs say, leave everyone
 * else's data as it was, tell owners counts and never text, and leave no kept
 * recall answer holding an erased fact (through the API's recall cache).
 */
import { describe, expect, it } from "vitest";
import { seedDemo, DEMO_FACTS } from "@/db/seed";
import { remember } from "@/lib/memory/writes";
import { storedLineSize } from "@/lib/memory/token-budget";
import { scoutHeard } from "@/lib/testing/scout-heard";
import { recallAnswer, recallOutputOf, RecallCache } from "@/lib/api/recall-cache";
import { authenticateAgent } from "@/lib/api/auth";
import { OPERATOR } from "@/lib/admin/audit";
import { allRows, type Snapshot } from "@/lib/testing/db-rows";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { connect, type Db } from "@/db/client";
import { aboutPerson } from "./about-person";
import { deleteAccount } from "./delete-account";
import { erasePersonFacts, personFactCount } from "./erase-person-facts";
import { exportPerson } from "./export-person";
import { endAllSessions } from "./sessions";
import { FORMER_MEMBER } from "./types";

const t = tempDbForTests({ each: true });
const SCOUT_KEY = `mnemo_${"s".repeat(40)}`;
const seed = () => seedDemo(t.db, { scout: SCOUT_KEY, echo: `mnemo_${"e".repeat(40)}` });

const bodies = (items: { body: string }[]) => items.map((item) => item.body).sort();

async function rows(db: Db, sql: string, args: (string | number)[] = []) {
  return (await db.$client.execute({ sql, args })).rows.map((row) => ({ ...row }));
}

describe("aboutPerson and exportPerson", () => {
  it("list what is kept for, told by and kept from each person, as they may see it", async () => {
    await seed();
    const ana = await aboutPerson(t.db, "ana");
    expect(bodies(ana.lists.kept.items)).toEqual([DEMO_FACTS.anaPerson]);
    expect(bodies(ana.lists.told.items)).toEqual([]);
    expect(bodies(ana.lists.from_messages.items)).toEqual([DEMO_FACTS.anaPerson, DEMO_FACTS.refunds].sort());
    expect(ana.counts).toEqual({ kept: 1, told: 0, from_messages: 2, events: 0 });
    expect(ana.workspaces.map((w) => [w.id, w.agents.map((a) => [a.handle, a.counts.kept])])).toEqual([["acme", [["scout", 1]]]]);

    const max = await aboutPerson(t.db, "max");
    expect(bodies(max.lists.kept.items)).toEqual([DEMO_FACTS.maxPerson]);
    expect(bodies(max.lists.told.items)).toEqual([DEMO_FACTS.maxPerson]);
    expect(bodies(max.lists.from_messages.items)).toEqual([DEMO_FACTS.pairing, DEMO_FACTS.sso].sort());
    expect(max.counts.events).toBe(max.lists.events.total);
    expect(max.lists.events.items.every((e) => e.fact_id === max.lists.kept.items[0].id)).toBe(true);
  });

  it("name a channel fact's channel as the person knows it, on the page and in the download, never '#dm-ana'", async () => {
    await seed();
    // A fact of Ana's own DM as a channel, from her words there; the stored label is the DM's inner name.
    await scoutHeard(t.db, "Ana's DM notes go to the shared drive.", {
      scope: "channel",
      ref: "dm-ana",
      label: "#dm-ana",
      in: "dm-ana",
      from: "@ana in a direct message",
    });
    const labelOf = (items: { body: string; scope_label: string | null }[], body: string) => items.find((f) => f.body === body)?.scope_label;
    const ana = await aboutPerson(t.db, "ana");
    expect(labelOf(ana.lists.from_messages.items, "Ana's DM notes go to the shared drive.")).toBe("Your DM");
    expect(labelOf(ana.lists.from_messages.items, DEMO_FACTS.refunds)).toBe("#support");
    expect(labelOf((await aboutPerson(t.db, "max")).lists.from_messages.items, DEMO_FACTS.pairing)).toBe("DM with Ana Alves");
    const file = await exportPerson(t.db, "ana");
    expect(labelOf(file?.from_messages ?? [], "Ana's DM notes go to the shared drive.")).toBe("Your DM");
    expect(JSON.stringify([file, await exportPerson(t.db, "max")])).not.toMatch(/"scope_label":"#(dm|group)-/);
  });

  it("never list a fact the person may not see, even one kept from their own words", async () => {
    await seed();
    // Ana spoke in #leadership once; she is not in it now (private: Olivia and Max).
    await scoutHeard(t.db, "The board meets on the second Monday.", {
      scope: "channel",
      ref: "leadership",
      label: "#leadership",
      in: "leadership",
      from: "@ana in #leadership",
    });
    const file = await exportPerson(t.db, "ana");
    const text = JSON.stringify(file);
    expect(text).not.toContain("board meets");
    for (const other of [DEMO_FACTS.maxPerson, DEMO_FACTS.gusPerson, DEMO_FACTS.budget, DEMO_FACTS.globex]) expect(text).not.toContain(other);
    expect(file?.counts).toEqual({ kept: 1, told: 0, from_messages: 2, events: 0 });
    expect(bodies(file?.kept ?? [])).toEqual([DEMO_FACTS.anaPerson]);
    // Olivia may read #leadership, but the words were Ana's: not in Olivia's data either.
    expect(JSON.stringify(await exportPerson(t.db, "olivia"))).not.toContain("board meets");
  });

  it("pages each list, and a page past the end reads as the last", async () => {
    await seed();
    for (let i = 0; i < 5; i++) {
      await scoutHeard(t.db, `Ana's note number ${i}.`, { scope: "person", ref: "ana", label: "Ana Alves", in: "dm-ana", from: "@ana in a direct message" });
    }
    const first = await aboutPerson(t.db, "ana", { pageSize: 4 });
    const last = await aboutPerson(t.db, "ana", { pageSize: 4, pages: { kept: 99 } });
    expect([first.lists.kept.total, first.lists.kept.pages, first.lists.kept.items.length]).toEqual([6, 2, 4]);
    expect([last.lists.kept.page, last.lists.kept.items.length]).toEqual([2, 2]);
    expect(new Set([...bodies(first.lists.kept.items), ...bodies(last.lists.kept.items)]).size).toBe(6);
  });

  it("answer nothing for someone who does not exist", async () => {
    await seed();
    expect(await exportPerson(t.db, "nobody")).toBeNull();
    expect((await aboutPerson(t.db, "nobody")).counts).toEqual({ kept: 0, told: 0, from_messages: 0, events: 0 });
  });
});

/** Every row but the erased person's facts and their history, and the bookkeeping erasure moves. */
function othersOf(snapshot: Snapshot, erased: Set<string>): Snapshot {
  return {
    ...snapshot,
    facts: snapshot.facts.filter((f) => !erased.has(String(f.id))),
    fact_events: snapshot.fact_events.filter((e) => !erased.has(String(e.fact_id))),
    agents: snapshot.agents.map((agent) => ({ ...agent, memory_version: null })),
    audit_events: [],
  };
}

describe("erasePersonFacts", () => {
  it("dry run counts per agent and changes nothing; confirming removes the facts, their history and every kept answer at once", async () => {
    await seed();
    // Two instances: each its own connection and its own kept answers, on one file.
    const other = connect(t.url);
    const instances = [
      { db: t.db, cache: new RecallCache(16 * 2 ** 20) },
      { db: other, cache: new RecallCache(16 * 2 ** 20) },
    ];
    const recallIn = async ({ db, cache }: (typeof instances)[number]) => {
      const agent = await authenticateAgent(
        db,
        new Request("http://mnemo.test/api/v1/recall", { headers: { authorization: `Bearer ${SCOUT_KEY}` } }),
      );
      return recallOutputOf(await recallAnswer(db, agent, { channel: "dm-ana", asker: "ana" }, cache)).facts.map((f) => f.body);
    };
    const recall = async () => (await Promise.all(instances.map(recallIn))).flat();
    expect(await recall()).toContain(DEMO_FACTS.anaPerson);
    const before = await allRows(t.db);

    const dry = await erasePersonFacts(t.db, "ana", { dryRun: true, by: { id: "ana", name: "Ana Alves" } });
    expect(dry).toEqual({
      status: "dry_run",
      total: 1,
      agents: [{ workspace: { id: "acme", name: "Acme" }, agent: { id: "scout", handle: "scout", name: "Scout" }, facts: 1 }],
    });
    expect(await allRows(t.db)).toEqual(before);

    const anaFact = before.facts.find((f) => f.body === DEMO_FACTS.anaPerson);
    const done = await erasePersonFacts(t.db, "ana", { dryRun: false, workspaceId: "acme", by: { id: "ana", name: "Ana Alves" } });
    expect(done).toMatchObject({ status: "erased", total: 1 });
    const after = await allRows(t.db);
    expect(after.facts.some((f) => f.body === DEMO_FACTS.anaPerson)).toBe(false);
    expect(after.fact_events.some((e) => e.fact_id === anaFact?.id)).toBe(false);
    expect(othersOf(after, new Set([String(anaFact?.id)]))).toEqual(othersOf(before, new Set([String(anaFact?.id)])));
    // Neither instance serves its kept answer again: the agent's memory version moved.
    expect(await recall()).not.toContain(DEMO_FACTS.anaPerson);
    other.$client.close();

    const audit = await rows(t.db, "SELECT actor_name, action, summary FROM audit_events WHERE action = 'person.erase'");
    expect(audit).toEqual([{ actor_name: "Ana Alves", action: "person.erase", summary: "Ana Alves: erased 1 fact (@scout 1) kept just for them" }]);
    expect(JSON.stringify(audit)).not.toContain("Portuguese");
  });

  it("in one workspace leaves the others; everywhere takes them all; the operator's ends every session", async () => {
    await seed();
    await remember(t.db, {
      agentId: "echo",
      workspaceId: "globex",
      body: "Gina likes short answers.",
      scope: "person",
      scopeRef: "gina",
      scopeLabel: "Gina Grant",
      source: { kind: "message", ref: null, label: "@gina in a direct message", channelId: "dm-gina" },
      by: { kind: "agent", id: "echo", name: "Echo" },
      pinned: false,
    });
    expect(await personFactCount(t.db, "globex", "gina")).toBe(1);
    expect(await personFactCount(t.db, "acme", "gina")).toBe(0);
    expect((await erasePersonFacts(t.db, "gina", { dryRun: false, workspaceId: "acme", by: OPERATOR })).total).toBe(0);
    expect(await personFactCount(t.db, "globex", "gina")).toBe(1);
    const [{ session_version: before }] = await rows(t.db, "SELECT session_version FROM users WHERE id = 'gina'");
    const done = await erasePersonFacts(t.db, "gina", { dryRun: false, by: OPERATOR, endSessions: true });
    expect(done.total).toBe(1);
    expect(await personFactCount(t.db, "globex", "gina")).toBe(0);
    const [{ session_version: after }] = await rows(t.db, "SELECT session_version FROM users WHERE id = 'gina'");
    expect(Number(after)).toBe(Number(before) + 1);
  });
});

describe("endAllSessions", () => {
  it("bumps the person's session version and no one else's", async () => {
    await seed();
    const before = await rows(t.db, "SELECT id, session_version FROM users ORDER BY id");
    await endAllSessions(t.db, "ana");
    const after = await rows(t.db, "SELECT id, session_version FROM users ORDER BY id");
    expect(after).toEqual(before.map((r) => (r.id === "ana" ? { ...r, session_version: Number(r.session_version) + 1 } : r)));
  });
});

describe("deleteAccount", () => {
  it("dry run says what happens and changes nothing; confirming does exactly that", async () => {
    await seed();
    const before = await allRows(t.db);
    const dry = await deleteAccount(t.db, "gus", { dryRun: true });
    expect(dry).toMatchObject({
      status: "dry_run",
      plan: { personFactsTotal: 1, toldFactsStay: 0, leaves: [{ id: "acme", name: "Acme" }], deletesWorkspaces: [], lastOwnerOf: [] },
    });
    expect(await allRows(t.db)).toEqual(before);

    expect(await deleteAccount(t.db, "gus", { dryRun: false })).toMatchObject({ status: "deleted" });
    expect(await rows(t.db, "SELECT id FROM users WHERE id = 'gus'")).toEqual([]);
    expect(await rows(t.db, "SELECT id FROM facts WHERE body = ?", [DEMO_FACTS.gusPerson])).toEqual([]);
    expect(await rows(t.db, "SELECT user_id FROM memberships WHERE user_id = 'gus'")).toEqual([]);
  });

  it("leaves the facts they told, with 'a former member' where their name stood", async () => {
    await seed();
    // Max told a workspace fact and a channel fact came from his message: both stay, his name goes.
    const told = await remember(t.db, {
      agentId: "scout",
      workspaceId: "acme",
      body: "Standup is at 9:30.",
      scope: "workspace",
      scopeRef: "",
      scopeLabel: null,
      source: { kind: "person", ref: "max", label: "@max", channelId: null },
      by: { kind: "user", id: "max", name: "Max Mills" },
      pinned: false,
    });
    expect(told.status).toBe("created");
    expect(await deleteAccount(t.db, "max", { dryRun: false })).toMatchObject({
      status: "deleted",
      plan: { toldFactsStay: 1, renamed: { facts: 3 } },
    });
    const kept = await rows(t.db, "SELECT body, source_label, terms FROM facts WHERE body IN (?, ?, ?) ORDER BY body", [
      "Standup is at 9:30.",
      DEMO_FACTS.sso,
      DEMO_FACTS.pairing,
    ]);
    expect(kept.map((r) => [r.body, r.source_label])).toEqual([
      [DEMO_FACTS.pairing, `${FORMER_MEMBER} in a direct message`],
      ["Standup is at 9:30.", FORMER_MEMBER],
      [DEMO_FACTS.sso, `${FORMER_MEMBER} in #general`],
    ]);
    expect(kept.map((r) => String(r.source_label)).join(" ")).not.toMatch(/max/i);
    // Each renamed fact's line size is its new line's (token-budget.ts): no hash of the old line with the handle is left.
    const lines = await rows(t.db, "SELECT id, scope, pinned, body, source_label, line_size FROM facts WHERE body IN (?, ?, ?)", [
      "Standup is at 9:30.",
      DEMO_FACTS.sso,
      DEMO_FACTS.pairing,
    ]);
    for (const r of lines) {
      const line = { id: String(r.id), scope: String(r.scope), body: String(r.body), sourceLabel: String(r.source_label), pinned: !!r.pinned };
      expect(r.line_size).toBe(storedLineSize(line));
    }
    expect(await rows(t.db, "SELECT DISTINCT actor_name FROM fact_events WHERE actor_id = 'max'")).toEqual([{ actor_name: FORMER_MEMBER }]);
    expect(await rows(t.db, "SELECT id FROM facts WHERE body = ?", [DEMO_FACTS.maxPerson])).toEqual([]);
  });

  it("is refused for the last owner of a workspace with other people, with the workspace named", async () => {
    await seed();
    const before = await allRows(t.db);
    expect(await deleteAccount(t.db, "olivia", { dryRun: false })).toMatchObject({
      status: "last_owner",
      workspaces: [{ id: "acme", name: "Acme" }],
    });
    expect(await allRows(t.db)).toEqual(before);
  });

  it("deletes a workspace where they are the only person only when its name is typed back", async () => {
    await seed();
    const before = await allRows(t.db);
    expect(await deleteAccount(t.db, "gina", { dryRun: false })).toMatchObject({ status: "confirm_names", workspaces: [{ id: "globex" }] });
    expect(await deleteAccount(t.db, "gina", { dryRun: false, confirmWorkspaceNames: ["globex"] })).toMatchObject({ status: "confirm_names" });
    expect(await allRows(t.db)).toEqual(before);
    expect(await deleteAccount(t.db, "gina", { dryRun: false, confirmWorkspaceNames: [" Globex "] })).toMatchObject({ status: "deleted" });
    expect(await rows(t.db, "SELECT id FROM workspaces WHERE id = 'globex'")).toEqual([]);
    expect(await rows(t.db, "SELECT id FROM facts WHERE workspace_id = 'globex'")).toEqual([]);
    expect(await rows(t.db, "SELECT id FROM agents WHERE workspace_id = 'globex'")).toEqual([]);
  });

  it("answers not_found for an unknown person", async () => {
    await seed();
    expect(await deleteAccount(t.db, "nobody", { dryRun: true })).toEqual({ status: "not_found" });
  });
});
