import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { facts } from "@/db/schema";
import { seedDemo } from "@/db/seed";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import { readableChannels } from "./channels";
import { tellFact } from "./tell";
import type { PersonActor } from "./writes";

let t: TempDb;
const scout = { id: "scout", workspaceId: "acme" };
const echo = { id: "echo", workspaceId: "globex" };
const person = (id: string, name: string, workspaceId = "acme"): PersonActor => ({
  workspaceId,
  id,
  name,
  handle: id,
});
const ana = person("ana", "Ana Alves");
const olivia = person("olivia", "Olivia Owen");

async function factCount() {
  const [row] = await t.db.select({ n: count() }).from(facts);
  return row.n;
}

beforeAll(async () => {
  t = await createTempDb();
  await seedDemo(t.db);
});
afterAll(() => t.close());

describe("tellFact: a person adds a fact from the Memory page", () => {
  it("keeps 'Just me' as the person's own pinned fact, told by them", async () => {
    const result = await tellFact(t.db, ana, scout, { text: "Ana is out on Fridays.", scope: "person" });
    expect(result.status).toBe("created");
    if (result.status !== "created") return;
    expect(result.fact).toMatchObject({
      scope: "person",
      scopeRef: "ana",
      scopeLabel: "Ana Alves",
      pinned: true,
      createdBy: "ana",
      createdByKind: "user",
      sourceKind: "person",
      sourceLabel: "@ana",
    });
  });

  it("lets an owner keep a workspace fact, and refuses a member with nothing written", async () => {
    expect((await tellFact(t.db, olivia, scout, { text: "Offices close at 6.", scope: "workspace" })).status).toBe("created");
    const before = await factCount();
    expect((await tellFact(t.db, ana, scout, { text: "Everyone gets Fridays off.", scope: "workspace" })).status).toBe(
      "not_allowed",
    );
    expect(await factCount()).toBe(before);
  });

  it("keeps a channel fact only for a channel the person can read, labelled with its name", async () => {
    const ok = await tellFact(t.db, ana, scout, { text: "Support answers within a day.", scope: "channel", channelId: "support" });
    expect(ok).toMatchObject({ status: "created", fact: { scope: "channel", scopeRef: "support", scopeLabel: "#support" } });
    const before = await factCount();
    for (const channelId of ["leadership", "dm-max", "lobby", "missing", ""]) {
      const refused = await tellFact(t.db, ana, scout, { text: `Secret plans for ${channelId}.`, scope: "channel", channelId });
      expect(refused.status, channelId).toBe("not_allowed");
    }
    expect(await factCount()).toBe(before);
  });

  it("refuses another workspace's agent and a person who is not a member", async () => {
    const before = await factCount();
    expect((await tellFact(t.db, ana, echo, { text: "Globex is moving.", scope: "person" })).status).toBe("not_allowed");
    const stranger = person("gina", "Gina Grant", "acme");
    expect((await tellFact(t.db, stranger, scout, { text: "Gina was here.", scope: "person" })).status).toBe("not_allowed");
    expect(await factCount()).toBe(before);
  });

  it("refuses blank text and secrets before writing anything", async () => {
    expect((await tellFact(t.db, ana, scout, { text: "   \n ", scope: "person" })).status).toBe("invalid_fact");
    expect(await tellFact(t.db, ana, scout, { text: "token=abc123xyz", scope: "person" })).toEqual({
      status: "looks_like_secret",
      what: "a password or token",
    });
    expect(await t.db.select().from(facts).where(eq(facts.body, "token=abc123xyz"))).toEqual([]);
  });
});

describe("readableChannels", () => {
  it("names the channels a person can read, their own DM marked", async () => {
    const channels = await readableChannels(t.db, { workspaceId: "acme", id: "ana" });
    expect(channels.map((c) => [c.id, c.label, c.isOwnDm])).toEqual([
      ["general", "#general", false],
      ["support", "#support", false],
      ["dm-ana", "Your DM", true],
      ["group-max-ana", "DM with Max Mills", false],
    ]);
  });

  it("gives owners no extra channels, and strangers none", async () => {
    const olivias = await readableChannels(t.db, { workspaceId: "acme", id: "olivia" });
    expect(olivias.map((c) => c.id)).toEqual(["general", "support", "leadership"]);
    expect(await readableChannels(t.db, { workspaceId: "acme", id: "gina" })).toEqual([]);
  });
});
