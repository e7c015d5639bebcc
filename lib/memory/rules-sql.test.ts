/**
 * Each SQL twin in rules-sql.ts gives, on a real database, exactly the verdict of
 * the pure rule it mirrors — for every person of the demo in every workspace, and
 * in every place of the demo, over facts of every scope, ref and kind of keeper,
 * ending before, on and after the day the twins are asked on (and never), live and proposed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAll, type SqlPart } from "@/db/client";
import { seedDemo } from "@/db/seed";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import { derivePlace } from "./place";
import { agentMayForget, changeableBy, recallable, shownTo, visibleTo, type Place, type Viewer } from "./rules";
import {
  agentMayForgetSql,
  changeableSql,
  memberSql,
  ownerSql,
  readableChannelIdsSql,
  recallableSql,
  shownSql,
  visibleSql,
  type ViewerRef,
} from "./rules-sql";

type Fact = {
  id: string;
  agentId: string;
  workspaceId: string;
  scope: string;
  scopeRef: string;
  pinned: boolean;
  createdByKind: string;
  sourceKind: string;
  forgottenAt: string | null;
  validUntil: string | null;
  proposedAt: string | null;
};
type Channel = { id: string; workspaceId: string; kind: "public" | "private" | "dm" };

let t: TempDb;
let facts: Fact[];
let channels: Channel[];
let members: { workspaceId: string; userId: string; role: string }[];
let inChannel: { channelId: string; userId: string }[];
let people: string[];
let workspaceIds: string[];
/** The day the expiry rules are asked on: a fact until the day before is expired, one until this day is not. */
const TODAY = "2026-06-15";

/** The ids of the facts a twin lets through, sorted. */
async function passing(part: SqlPart): Promise<string[]> {
  const rows = await readAll<{ id: string }>(t.db, `SELECT facts.id AS id FROM facts WHERE ${part.text}`, part.args);
  return rows.map((row) => row.id).sort();
}

function ids(list: Fact[]): string[] {
  return list.map((fact) => fact.id).sort();
}

async function holds(part: SqlPart): Promise<boolean> {
  return (await readAll(t.db, `SELECT 1 WHERE ${part.text}`, part.args)).length > 0;
}

/** The pure rules' viewer for a member, as the app builds it from the same tables. */
function viewerOf(who: ViewerRef): Viewer {
  const role = members.find((m) => m.workspaceId === who.workspaceId && m.userId === who.id)?.role;
  return {
    workspaceId: who.workspaceId,
    id: who.id,
    owner: role === "owner",
    canRead: (channelId) => {
      const channel = channels.find((c) => c.id === channelId && c.workspaceId === who.workspaceId);
      return !!channel && (channel.kind === "public" || inChannel.some((m) => m.channelId === channelId && m.userId === who.id));
    },
  };
}

beforeAll(async () => {
  t = await createTempDb();
  await seedDemo(t.db);
  channels = await readAll<Channel>(t.db, "SELECT id, workspace_id AS workspaceId, kind FROM channels", []);
  members = await readAll(t.db, "SELECT workspace_id AS workspaceId, user_id AS userId, role FROM memberships", []);
  inChannel = await readAll(t.db, "SELECT channel_id AS channelId, user_id AS userId FROM channel_members", []);
  people = (await readAll<{ id: string }>(t.db, "SELECT id FROM users", [])).map((row) => row.id);
  workspaceIds = (await readAll<{ id: string }>(t.db, "SELECT id FROM workspaces", [])).map((row) => row.id);
  const agents = await readAll<{ id: string; workspaceId: string }>(t.db, "SELECT id, workspace_id AS workspaceId FROM agents", []);

  // Beside the demo's facts: one of every scope and ref — every channel and person of
  // every workspace, so refs of other workspaces too — for each way a fact can be kept.
  const refs = [
    ["workspace", ""],
    ...channels.map((c) => ["channel", c.id]),
    ...people.map((p) => ["person", p]),
  ];
  const kinds = [
    { pinned: 0, by: "agent", source: "message", forgotten: null, until: null },
    // Proposals: waiting (never recalled), waiting and ending today, and declined (forgotten).
    { pinned: 0, by: "agent", source: "message", forgotten: null, until: null, proposed: "2026-06-01T00:00:00.000Z" },
    { pinned: 0, by: "agent", source: "session", forgotten: null, until: TODAY, proposed: "2026-06-01T00:00:00.000Z" },
    { pinned: 0, by: "agent", source: "message", forgotten: "2026-06-02T00:00:00.000Z", until: null, proposed: "2026-06-01T00:00:00.000Z" },
    { pinned: 1, by: "agent", source: "session", forgotten: null, until: null },
    { pinned: 0, by: "user", source: "person", forgotten: null, until: null },
    { pinned: 0, by: "agent", source: "person", forgotten: null, until: null },
    { pinned: 0, by: "agent", source: "message", forgotten: "2026-01-01T00:00:00.000Z", until: null },
    { pinned: 0, by: "agent", source: "message", forgotten: null, until: "2026-06-14" },
    { pinned: 0, by: "agent", source: "message", forgotten: null, until: TODAY },
    { pinned: 1, by: "user", source: "person", forgotten: null, until: "2026-06-16" },
  ];
  let n = 0;
  for (const agent of agents) {
    for (const [scope, ref] of refs) {
      for (const kind of kinds) {
        n += 1;
        await t.db.$client.execute({
          sql: `INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, body, body_key, source_kind,
              created_by, created_by_kind, pinned, created_at, updated_at, forgotten_at, valid_until, proposed_at,
              proposal_reason)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'someone', ?, ?, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', ?, ?, ?, ?)`,
          args: [
            `twin_${n}`, agent.id, agent.workspaceId, scope, ref, `fact ${n}`, `fact ${n}`, kind.source, kind.by,
            kind.pinned, kind.forgotten, kind.until, kind.proposed ?? null, kind.proposed ? "setting" : null,
          ],
        });
      }
    }
  }
  facts = (
    await readAll<Omit<Fact, "pinned"> & { pinned: number }>(
      t.db,
      `SELECT id, agent_id AS agentId, workspace_id AS workspaceId, scope, scope_ref AS scopeRef, pinned,
        created_by_kind AS createdByKind, source_kind AS sourceKind, forgotten_at AS forgottenAt,
        valid_until AS validUntil, proposed_at AS proposedAt FROM facts`,
      [],
    )
  ).map((fact) => ({ ...fact, pinned: !!fact.pinned }));
  expect(facts.length).toBeGreaterThan(100);
});

afterAll(() => t.close());

/** Every person of the demo in every workspace: members and not. */
function everyone(): { who: ViewerRef; member: boolean }[] {
  return workspaceIds.flatMap((workspaceId) =>
    people.map((userId) => ({
      who: { workspaceId, id: userId },
      member: members.some((m) => m.workspaceId === workspaceId && m.userId === userId),
    })),
  );
}

/** Every place of the demo: each channel as each person who can read it asks, and without an asker. */
async function everyPlace(): Promise<Place[]> {
  const places: Place[] = [];
  for (const channel of channels) {
    for (const asker of [null, ...people]) {
      try {
        places.push((await derivePlace(t.db, channel.workspaceId, channel.id, asker)).place);
      } catch {
        // not a place: this person cannot ask here
      }
    }
  }
  return places;
}

describe("the SQL twins of the rules", () => {
  it("memberSql and ownerSql say what the memberships say", async () => {
    for (const { who, member } of everyone()) {
      expect(await holds(memberSql(who)), `${who.id} in ${who.workspaceId}`).toBe(member);
      expect(await holds(ownerSql(who)), `${who.id} owns ${who.workspaceId}`).toBe(member && viewerOf(who).owner);
    }
  });

  it("readableChannelIdsSql lists exactly the channels viewer.canRead allows", async () => {
    for (const { who, member } of everyone()) {
      if (!member) continue;
      const part = readableChannelIdsSql(who);
      const sql = (await readAll<{ id: string }>(t.db, part.text, part.args)).map((row) => row.id).sort();
      expect(sql, who.id).toEqual(channels.filter((c) => viewerOf(who).canRead(c.id)).map((c) => c.id).sort());
    }
  });

  it("visibleSql is visibleTo, and a person outside the workspace sees nothing", async () => {
    for (const { who, member } of everyone()) {
      const expected = member ? ids(facts.filter((fact) => visibleTo(fact, viewerOf(who)))) : [];
      expect(await passing(visibleSql(who)), `${who.id} in ${who.workspaceId}`).toEqual(expected);
    }
  });

  it("changeableSql is changeableBy, and a person outside the workspace changes nothing", async () => {
    for (const { who, member } of everyone()) {
      const expected = member ? ids(facts.filter((fact) => changeableBy(fact, viewerOf(who)))) : [];
      expect(await passing(changeableSql(who)), `${who.id} in ${who.workspaceId}`).toEqual(expected);
    }
  });

  it("shownSql is shownTo: a proposal only to those who may decide it, and a person outside the workspace sees nothing", async () => {
    for (const { who, member } of everyone()) {
      const expected = member ? ids(facts.filter((fact) => shownTo(fact, viewerOf(who)))) : [];
      expect(await passing(shownSql(who)), `${who.id} in ${who.workspaceId}`).toEqual(expected);
    }
    // Max sees the workspace proposals' scope but may not decide them, so he is not shown them.
    const max = { workspaceId: "acme", id: "max" };
    const waiting = facts.filter((f) => f.proposedAt && !f.forgottenAt && f.scope === "workspace" && f.workspaceId === "acme");
    expect(waiting.length).toBeGreaterThan(0);
    expect((await passing(shownSql(max))).filter((id) => waiting.some((f) => f.id === id))).toEqual([]);
  });

  it("recallableSql is recallable, in every place, on the day asked", async () => {
    const places = await everyPlace();
    expect(places.length).toBeGreaterThan(10);
    for (const place of places) {
      expect(await passing(recallableSql(place, TODAY)), JSON.stringify(place)).toEqual(
        ids(facts.filter((fact) => recallable(fact, place, TODAY))),
      );
    }
    // Both leave out the fact that ended the day before, and keep the one that ends today.
    const ended = facts.filter((fact) => fact.validUntil === "2026-06-14").map((fact) => fact.id);
    const endsToday = facts.filter((fact) => fact.validUntil === TODAY && fact.scope === "workspace").map((fact) => fact.id);
    const general = places.find((place) => place.channelId === "general")!;
    const allowed = await passing(recallableSql(general, TODAY));
    expect(allowed.filter((id) => ended.includes(id))).toEqual([]);
    expect(endsToday.filter((id) => allowed.includes(id)).length).toBeGreaterThan(0);
    // Neither lets a proposal through, in any place.
    const proposed = facts.filter((fact) => fact.proposedAt).map((fact) => fact.id);
    expect(proposed.length).toBeGreaterThan(10);
    for (const place of places) expect((await passing(recallableSql(place, TODAY))).filter((id) => proposed.includes(id))).toEqual([]);
  });

  it("agentMayForgetSql is agentMayForget saying allowed, for every agent in every place", async () => {
    const agentIds = [...new Set(facts.map((fact) => fact.agentId))];
    for (const place of await everyPlace()) {
      for (const agentId of agentIds) {
        expect(await passing(agentMayForgetSql(agentId, place, TODAY)), `${agentId} ${JSON.stringify(place)}`).toEqual(
          ids(facts.filter((fact) => agentMayForget(fact, agentId, place, TODAY) === "allowed")),
        );
      }
    }
  });
});
