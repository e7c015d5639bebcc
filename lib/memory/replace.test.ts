/**
 * Replacements on a real database (issue #15): `replaces` obeys the forget rules,
 * the old fact's history moves to the new one with a `replace` event, the old row
 * goes with everything hanging from it, purging the new fact leaves the old text
 * nowhere, a forget racing a replace leaves exactly one of the two live, replacing
 * at the limit frees a place, and a proposal only records the intent until approve.
 */
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { factEvents, facts } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { nowIso } from "@/lib/ids";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { derivePlace } from "./place";
import { MAX_FACTS, utcDay, type Place } from "./rules";
import { factHistory, liveFactCount, recall } from "./store";
import { approveProposal } from "./proposals";
import { tellFact } from "./tell";
import { replacedBy } from "./replace";
import { agentForget, forgetFact, purgeFact, remember, type NewFact, type PersonActor } from "./writes";

const SCOUT = { kind: "agent" as const, id: "scout", name: "Scout" };
const MAX_P: PersonActor = { workspaceId: "acme", id: "max", name: "Max Mills", handle: "max" };
const OLIVIA_P: PersonActor = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
const NEW_REFUNDS = "Refunds over $300 need a manager's approval.";

const t = tempDbForTests({ demo: true, each: true });

async function placeOf(channel: string, asker: string): Promise<Place> {
  return (await derivePlace(t.db, "acme", channel, asker)).place;
}

async function idOf(body: string): Promise<string> {
  const [row] = await t.db.select({ id: facts.id }).from(facts).where(eq(facts.body, body));
  if (!row) throw new Error(`no fact "${body}"`);
  return row.id;
}

/** Scout keeping a #support channel fact, as the agent API would, optionally replacing `replaces` from `place`. */
function scoutSays(body: string, place: Place, replaces?: string, extra: Partial<NewFact> = {}): NewFact {
  return {
    agentId: "scout",
    workspaceId: "acme",
    body,
    scope: "channel",
    scopeRef: place.channelId,
    scopeLabel: `#${place.channelId}`,
    source: { kind: "message", ref: null, label: `@ana in #${place.channelId}`, channelId: place.channelId },
    by: SCOUT,
    pinned: false,
    replaces: replaces === undefined ? undefined : { id: replaces, place, today: utcDay() },
    ...extra,
  };
}

async function liveBodies(): Promise<string[]> {
  const rows = await t.db.select({ body: facts.body, forgottenAt: facts.forgottenAt }).from(facts);
  return rows.filter((row) => !row.forgottenAt).map((row) => row.body);
}

async function eventsOf(factId: string) {
  return t.db.select().from(factEvents).where(eq(factEvents.factId, factId)).orderBy(factEvents.id);
}

/** Every text value in every table of the file (FTS shadow tables included): where a purged text could hide. */
async function everyText(): Promise<string[]> {
  const { rows: tables } = await t.db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table'");
  const texts: string[] = [];
  for (const { name } of tables) {
    const { rows } = await t.db.$client.execute(`SELECT * FROM "${String(name)}"`);
    for (const row of rows) for (const value of Object.values(row)) if (typeof value === "string") texts.push(value);
  }
  return texts;
}

describe("replaces", () => {
  it("retires the old fact in the write that keeps the new one; its history moves there with a replace event", async () => {
    const support = await placeOf("support", "ana");
    const oldId = await idOf(DEMO_FACTS.refunds);
    const oldEvents = await eventsOf(oldId);
    await t.db.run(sql`INSERT INTO fact_usage (fact_seq, recalled_count, last_recalled_at) SELECT seq, 3, ${nowIso()} FROM facts WHERE id = ${oldId}`);
    const oldSeq = (await t.db.select({ seq: facts.seq }).from(facts).where(eq(facts.id, oldId)))[0].seq;

    const result = await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId));
    expect(result).toMatchObject({ status: "created", replaced: { id: oldId, body: DEMO_FACTS.refunds } });
    if (result.status !== "created") throw new Error("not created");
    const newId = result.fact.id;

    expect(await t.db.select().from(facts).where(eq(facts.id, oldId))).toEqual([]);
    expect((await recall(t.db, "scout", support)).map((fact) => fact.body)).toContain(NEW_REFUNDS);
    expect((await recall(t.db, "scout", support)).map((fact) => fact.body)).not.toContain(DEMO_FACTS.refunds);
    // The cascade took what hung from the old row.
    const { rows: usage } = await t.db.$client.execute({ sql: "SELECT * FROM fact_usage WHERE fact_seq = ?", args: [oldSeq] });
    expect(usage).toEqual([]);

    const history = await eventsOf(newId);
    expect(history.map((event) => event.kind)).toEqual([...oldEvents.map((event) => event.kind), "remember", "replace"]);
    expect(history.slice(0, oldEvents.length).map((event) => event.id)).toEqual(oldEvents.map((event) => event.id));
    expect(history.at(-1)).toMatchObject({
      kind: "replace",
      actorId: "scout",
      actorKind: "agent",
      actorName: "Scout",
      before: DEMO_FACTS.refunds,
      after: NEW_REFUNDS,
      otherFactId: oldId,
      placeLabel: "@ana in #support",
    });
    expect(await eventsOf(oldId)).toEqual([]);
    // The Memory page's History of the new fact reads the whole chain, with who replaced it and where.
    expect((await factHistory(t.db, MAX_P, "scout", newId)).map((event) => event.kind)).toEqual(history.map((event) => event.kind));
    expect((await factHistory(t.db, MAX_P, "scout", newId)).at(-1)).toEqual({
      kind: "replace",
      actorName: "Scout",
      actorKind: "agent",
      before: DEMO_FACTS.refunds,
      after: NEW_REFUNDS,
      placeLabel: "@ana in #support",
      at: expect.any(String),
    });
    // The old id leads to the new fact where the agent may recall it, and nowhere else.
    expect(await replacedBy(t.db, "scout", oldId, support, utcDay())).toBe(newId);
    expect(await replacedBy(t.db, "scout", oldId, await placeOf("general", "ana"), utcDay())).toBeNull();
    expect(await replacedBy(t.db, "echo", oldId, support, utcDay())).toBeNull();
  });

  it("the same replace again (a retry after a lost answer) is a repeat of the new fact, without the old text; any other write naming the old id is still a 404", async () => {
    const support = await placeOf("support", "ana");
    const oldId = await idOf(DEMO_FACTS.refunds);
    const first = await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId));
    if (first.status !== "created") throw new Error("not created");

    const again = await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId));
    expect(again).toMatchObject({ status: "deduplicated", fact: { id: first.fact.id } });
    // Its id, not its text: the old row is gone, so whether this place may read the text can no longer be judged.
    if (again.status !== "deduplicated") throw new Error("not a repeat");
    expect(again.replaced).toEqual({ id: oldId });
    const refused = { status: "replace_refused", verdict: "not_found" };
    // Other text, another scope, another agent, or an id never retired into this fact: not this write done before.
    expect(await remember(t.db, scoutSays("Refunds over $400 need a manager's approval.", support, oldId))).toEqual(refused);
    expect(await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId, { scope: "workspace", scopeRef: "" }))).toEqual(refused);
    const echo = { agentId: "echo", by: { kind: "agent" as const, id: "echo", name: "Echo" } };
    expect(await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId, echo))).toEqual(refused);
    expect(await remember(t.db, scoutSays(NEW_REFUNDS, support, "fact_never"))).toEqual(refused);
    // Still one live copy, and one replace event: the retry is a repeat, as a plain remember of the same text is.
    expect((await liveBodies()).filter((body) => body === NEW_REFUNDS)).toHaveLength(1);
    expect((await eventsOf(first.fact.id)).map((event) => event.kind).slice(-3)).toEqual(["remember", "replace", "remember"]);

    // Once the new fact is forgotten, nothing stands in the old one's place: a 404 again, and nothing written.
    expect(await forgetFact(t.db, MAX_P, "scout", first.fact.id)).toMatchObject({ status: "forgotten" });
    const before = await t.db.select().from(facts);
    expect(await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId))).toEqual(refused);
    expect(await t.db.select().from(facts)).toEqual(before);
  });

  it("a workspace replace sent again is a repeat whatever scope_ref the write carries (a workspace fact's is '')", async () => {
    const general = await placeOf("general", "ana");
    const workspace = { scope: "workspace" as const, scopeRef: "general", scopeLabel: null };
    const old = await remember(t.db, scoutSays("Standup is at 9:30.", general, undefined, workspace));
    if (old.status !== "created") throw new Error("not created");
    const first = await remember(t.db, scoutSays("Standup is at 10:00.", general, old.fact.id, workspace));
    expect(first).toMatchObject({ status: "created", replaced: { id: old.fact.id } });
    if (first.status !== "created") throw new Error("not created");
    const again = await remember(t.db, scoutSays("Standup is at 10:00.", general, old.fact.id, workspace));
    expect(again).toMatchObject({ status: "deduplicated", fact: { id: first.fact.id }, replaced: { id: old.fact.id } });
  });

  it("a waiting replacement sent again records its intent once; after approve, the same write is a repeat", async () => {
    const support = await placeOf("support", "ana");
    const oldId = await idOf(DEMO_FACTS.refunds);
    const waiting = scoutSays(NEW_REFUNDS, support, oldId, { proposal: "setting" });
    const first = await remember(t.db, waiting);
    if (first.status !== "created") throw new Error("not created");
    expect(await remember(t.db, waiting)).toMatchObject({ status: "deduplicated", fact: { id: first.fact.id }, replaced: { id: oldId } });
    expect((await eventsOf(first.fact.id)).filter((event) => event.kind === "replace")).toHaveLength(1);

    expect(await approveProposal(t.db, MAX_P, "scout", first.fact.id)).toMatchObject({ status: "approved" });
    expect((await eventsOf(first.fact.id)).map((event) => event.kind)).toEqual(["remember", "propose", "replace", "propose", "approve"]);
    expect(await remember(t.db, waiting)).toMatchObject({ status: "deduplicated", fact: { id: first.fact.id, proposedAt: null }, replaced: { id: oldId } });
  });

  it("purging the new fact leaves no row anywhere holding the old text", async () => {
    const support = await placeOf("support", "ana");
    const first = await remember(t.db, scoutSays(NEW_REFUNDS, support, await idOf(DEMO_FACTS.refunds)));
    if (first.status !== "created") throw new Error("not created");
    // A chain: the replacement is replaced in turn.
    const last = "Refunds over $200 need a manager's approval.";
    const second = await remember(t.db, scoutSays(last, support, first.fact.id));
    if (second.status !== "created") throw new Error("not created");
    expect((await eventsOf(second.fact.id)).filter((event) => event.kind === "replace").map((event) => event.otherFactId)).toEqual([
      expect.any(String),
      first.fact.id,
    ]);
    expect((await everyText()).filter((text) => text.includes("Refunds over $"))).not.toEqual([]);

    expect(await forgetFact(t.db, MAX_P, "scout", second.fact.id)).toEqual({ status: "forgotten" });
    expect(await purgeFact(t.db, MAX_P, "scout", second.fact.id)).toEqual({ status: "purged" });
    expect((await everyText()).filter((text) => /Refunds over \$/.test(text))).toEqual([]);
  });

  it("obeys the forget rules: 'forbidden' for a fact people pinned or gave, 'not_found' where it is not recallable; nothing written", async () => {
    const general = await placeOf("general", "ana");
    const before = await t.db.select().from(facts);
    const cases: [string, Place, string][] = [
      [DEMO_FACTS.releases, general, "forbidden"], // told by Olivia, pinned
      [DEMO_FACTS.budget, general, "not_found"], // #leadership's, not recallable in #general
      [DEMO_FACTS.anaPerson, general, "not_found"], // Ana's, recallable only in her DM
      [DEMO_FACTS.globex, general, "not_found"], // Echo's
      [DEMO_FACTS.sso, await placeOf("dm-ana", "ana"), "forbidden"], // a workspace fact, from a DM
    ];
    for (const [body, place, verdict] of cases) {
      const said = scoutSays("Something else is true now.", place, await idOf(body));
      expect(await remember(t.db, said), body).toEqual({ status: "replace_refused", verdict });
      expect(await agentForget(t.db, SCOUT, await idOf(body), place), body).toBe(verdict);
    }
    expect(await remember(t.db, scoutSays("Something else is true now.", general, "fact_missing"))).toEqual({
      status: "replace_refused",
      verdict: "not_found",
    });
    expect(await t.db.select().from(facts)).toEqual(before);
  });

  it("with the old fact's own text it only refreshes it; with another live fact's text, that twin takes the place", async () => {
    const support = await placeOf("support", "ana");
    const oldId = await idOf(DEMO_FACTS.refunds);
    expect(await remember(t.db, scoutSays(DEMO_FACTS.refunds, support, oldId))).toMatchObject({
      status: "deduplicated",
      fact: { id: oldId },
    });
    expect((await eventsOf(oldId)).map((event) => event.kind)).not.toContain("replace");

    const twin = await remember(t.db, scoutSays(NEW_REFUNDS, support));
    if (twin.status !== "created") throw new Error("not created");
    const result = await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId));
    expect(result).toMatchObject({ status: "deduplicated", fact: { id: twin.fact.id }, replaced: { id: oldId } });
    expect(await liveBodies()).not.toContain(DEMO_FACTS.refunds);
    // The old fact's two (kept, told again) and the twin's two (kept, told again with `replaces`), then the replace.
    expect((await eventsOf(twin.fact.id)).map((event) => event.kind)).toEqual(["remember", "remember", "remember", "remember", "replace"]);
  });

  it("a forget racing a replace of the same fact leaves exactly one of the two live, whichever goes first", async () => {
    const support = await placeOf("support", "ana");
    const orders = ["forget first", "replace first", "together"] as const;
    for (const [i, order] of orders.entries()) {
      const old = await remember(t.db, scoutSays(`Race ${i}: the old rule.`, support));
      if (old.status !== "created") throw new Error("not created");
      const forget = () => agentForget(t.db, SCOUT, old.fact.id, support);
      const replace = () => remember(t.db, scoutSays(`Race ${i}: the new rule.`, support, old.fact.id));
      if (order === "forget first") {
        expect(await forget()).toBe("forgotten");
        expect((await replace()).status).toBe("created");
      } else if (order === "replace first") {
        expect((await replace()).status).toBe("created");
        expect(await forget()).toBe("not_found");
      } else {
        await Promise.all([forget(), replace()]);
      }
      const live = (await liveBodies()).filter((body) => body.startsWith(`Race ${i}:`));
      expect(live, order).toEqual([`Race ${i}: the new rule.`]);
      // Nothing of the old one is left to restore beside its replacement.
      expect(await t.db.select().from(facts).where(eq(facts.id, old.fact.id)), order).toEqual([]);
    }
  });

  it("replacing at the limit works (the old fact frees its place); a proposal does not free it, since the old stays live", async () => {
    await t.db.run(sql`
      INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, scope_label, body, body_key,
        source_kind, created_by, created_by_kind, pinned, created_at, updated_at)
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${MAX_FACTS - (await liveFactCount(t.db, "scout"))})
      SELECT 'bulk_' || i, 'scout', 'acme', 'channel', 'support', '#support', 'Bulk fact ' || i || '.', 'bulk fact ' || i,
        'message', 'scout', 'agent', 0, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      FROM n`);
    expect(await liveFactCount(t.db, "scout")).toBe(MAX_FACTS);
    const support = await placeOf("support", "ana");

    expect(await remember(t.db, scoutSays("One too many.", support))).toEqual({ status: "memory_full" });
    const waiting = await remember(t.db, scoutSays(NEW_REFUNDS, support, "bulk_1", { proposal: "setting" }));
    expect(waiting).toEqual({ status: "memory_full" });

    const replaced = await remember(t.db, scoutSays(NEW_REFUNDS, support, "bulk_1"));
    expect(replaced).toMatchObject({ status: "created", replaced: { id: "bulk_1" } });
    expect(await liveFactCount(t.db, "scout")).toBe(MAX_FACTS);
  });

  it("a replacement that waits as a proposal leaves the old fact live until approve retires it", async () => {
    const support = await placeOf("support", "ana");
    const oldId = await idOf(DEMO_FACTS.refunds);
    const result = await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId, { proposal: "setting" }));
    expect(result).toMatchObject({ status: "created", fact: { proposedAt: expect.any(String) }, replaced: { id: oldId } });
    if (result.status !== "created") throw new Error("not created");
    expect(await liveBodies()).toContain(DEMO_FACTS.refunds);
    expect((await recall(t.db, "scout", support)).map((fact) => fact.body)).toContain(DEMO_FACTS.refunds);

    expect(await approveProposal(t.db, MAX_P, "scout", result.fact.id)).toMatchObject({ status: "approved" });
    expect(await t.db.select().from(facts).where(eq(facts.id, oldId))).toEqual([]);
    const kinds = (await eventsOf(result.fact.id)).map((event) => event.kind);
    expect(kinds).toEqual(["remember", "propose", "replace", "approve"]);
    expect((await recall(t.db, "scout", support)).map((fact) => fact.body)).toEqual(expect.arrayContaining([NEW_REFUNDS]));
    expect((await recall(t.db, "scout", support)).map((fact) => fact.body)).not.toContain(DEMO_FACTS.refunds);
  });

  it("a person telling a waiting replacement's very text approves it, and so retires the fact it replaces", async () => {
    const support = await placeOf("support", "ana");
    const oldId = await idOf(DEMO_FACTS.refunds);
    const proposal = await remember(t.db, scoutSays(NEW_REFUNDS, support, oldId, { proposal: "setting" }));
    if (proposal.status !== "created") throw new Error("not created");
    const told = await tellFact(t.db, MAX_P, { id: "scout", workspaceId: "acme" }, { text: NEW_REFUNDS, scope: "channel", channelId: "support" });
    expect(told).toMatchObject({ status: "deduplicated", fact: { id: proposal.fact.id, proposedAt: null } });
    expect(await t.db.select().from(facts).where(eq(facts.id, oldId))).toEqual([]);
    expect((await eventsOf(proposal.fact.id)).map((event) => event.kind)).toEqual(["remember", "propose", "replace", "approve", "pin"]);
  });

  it("approving retires only a fact the approver may change: a member's approval never retires a workspace fact", async () => {
    const support = await placeOf("support", "ana");
    const sso = await idOf(DEMO_FACTS.sso);
    const said = scoutSays("Only the Enterprise plan includes SSO.", support, sso, { proposal: "setting" });
    const proposal = await remember(t.db, said);
    if (proposal.status !== "created") throw new Error("not created");
    // Max reads #support, so he may decide its channel proposal, but only owners change workspace facts.
    expect(await approveProposal(t.db, MAX_P, "scout", proposal.fact.id)).toMatchObject({ status: "approved" });
    expect(await liveBodies()).toEqual(expect.arrayContaining([DEMO_FACTS.sso, "Only the Enterprise plan includes SSO."]));
    expect((await eventsOf(proposal.fact.id)).map((event) => event.kind)).toEqual(["propose", "approve"]);

    const again = await remember(t.db, scoutSays("SSO comes with the Enterprise plan only.", support, sso, { proposal: "setting" }));
    if (again.status !== "created") throw new Error("not created");
    expect(await approveProposal(t.db, OLIVIA_P, "scout", again.fact.id)).toMatchObject({ status: "approved" });
    expect(await liveBodies()).not.toContain(DEMO_FACTS.sso);
  });
});
