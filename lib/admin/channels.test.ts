/**
 * Owners managing channels, on real database files seeded with the demo. Each
 * change must show in the very next recall and listing: the place and the
 * visibility rule read these rows on every request.
 */
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { DEMO_FACTS } from "@/db/seed";
import { channels, channelMembers, facts } from "@/db/schema";
import { remember } from "@/lib/memory/writes";
import { freshDemoForEachTest, recalledFor, seenBy } from "@/lib/testing/demo-db";
import { createAgent } from "./agents";
import { listAudit } from "./audit";
import {
  addChannelMember,
  createChannel,
  listChannels,
  removeChannelMember,
  renameChannel,
  setChannelKind,
} from "./channels";

const db = freshDemoForEachTest();
const OLIVIA = { id: "olivia", name: "Olivia Owen" };
const GINA = { id: "gina", name: "Gina Grant" };
const BUDGET = "The Q3 budget freeze lifts in October."; // #leadership (private: olivia, max)

async function auditActions(workspaceId = "acme") {
  return (await listAudit(db(), workspaceId)).map((event) => [event.action, event.summary]).reverse();
}

describe("listChannels", () => {
  it("lists the workspace's channels, public first, each with its people", async () => {
    const list = await listChannels(db(), "acme");
    expect(list.map((c) => [c.name, c.kind])).toEqual([
      ["general", "public"],
      ["support", "public"],
      ["leadership", "private"],
      ["dm-ana", "dm"],
      ["dm-gus", "dm"],
      ["dm-max", "dm"],
      ["group-max-ana", "dm"],
    ]);
    expect(list.find((c) => c.id === "leadership")?.people).toEqual([
      { id: "max", name: "Max Mills" },
      { id: "olivia", name: "Olivia Owen" },
    ]);
    expect((await listChannels(db(), "globex")).map((c) => c.id)).toEqual(["lobby", "dm-gina"]);
  });
});

describe("createChannel", () => {
  it("creates an empty channel with a fresh id; names are unique in a workspace only", async () => {
    const created = await createChannel(db(), OLIVIA, "acme", { name: "design", kind: "private" });
    expect(created).toEqual({ status: "created", id: expect.stringMatching(/^ch_/) });
    expect((await listChannels(db(), "acme")).find((c) => c.name === "design")).toMatchObject({ kind: "private", people: [] });
    expect(await createChannel(db(), OLIVIA, "acme", { name: "design", kind: "public" })).toEqual({ status: "name_taken" });
    expect(await createChannel(db(), OLIVIA, "acme", { name: "general", kind: "public" })).toEqual({ status: "name_taken" });
    expect(await createChannel(db(), GINA, "globex", { name: "design", kind: "public" })).toMatchObject({ status: "created" });
    expect(await auditActions()).toEqual([["channel.create", "#design (private)"]]);
  });
});

describe("renameChannel", () => {
  it("renames the channel and its facts' scope labels, and refuses a taken name", async () => {
    expect(await renameChannel(db(), OLIVIA, "acme", "leadership", "leads")).toEqual({ status: "changed" });
    const [budget] = await db().select().from(facts).where(eq(facts.body, BUDGET));
    expect(budget.scopeLabel).toBe("#leads");
    expect(await renameChannel(db(), OLIVIA, "acme", "leadership", "general")).toEqual({ status: "name_taken" });
    expect(await renameChannel(db(), OLIVIA, "acme", "leadership", "leads")).toEqual({ status: "unchanged" });
    expect(await auditActions()).toEqual([["channel.rename", "#leadership → #leads"]]);
  });

  it("answers not_found for another workspace's channel", async () => {
    expect(await renameChannel(db(), GINA, "globex", "leadership", "mine")).toEqual({ status: "not_found" });
    const [row] = await db().select().from(channels).where(eq(channels.id, "leadership"));
    expect(row.name).toBe("leadership");
  });
});

describe("setChannelKind", () => {
  it("decides who sees and recalls a channel's facts from the next request on", async () => {
    expect(await seenBy(db(), "ana")).not.toContain(BUDGET);
    await expect(recalledFor(db(), "leadership", "ana")).rejects.toMatchObject({ code: "cannot_read" });

    expect(await setChannelKind(db(), OLIVIA, "acme", "leadership", "public")).toEqual({ status: "changed" });
    expect(await seenBy(db(), "ana")).toContain(BUDGET);
    expect(await recalledFor(db(), "leadership", "ana")).toContain(BUDGET);

    expect(await setChannelKind(db(), OLIVIA, "acme", "leadership", "private")).toEqual({ status: "changed" });
    expect(await seenBy(db(), "ana")).not.toContain(BUDGET);
    await expect(recalledFor(db(), "leadership", "ana")).rejects.toMatchObject({ code: "cannot_read" });
    expect(await setChannelKind(db(), OLIVIA, "acme", "leadership", "private")).toEqual({ status: "unchanged" });
    expect(await auditActions()).toEqual([
      ["channel.kind", "#leadership: private → public"],
      ["channel.kind", "#leadership: public → private"],
    ]);
  });

  it("makes a channel with one person a solo DM, where that person's own facts are recalled", async () => {
    const created = await createChannel(db(), OLIVIA, "acme", { name: "ana-and-scout", kind: "private" });
    if (created.status !== "created") throw new Error("expected a channel");
    await addChannelMember(db(), OLIVIA, "acme", created.id, "ana");
    expect(await recalledFor(db(), created.id, "ana")).not.toContain(DEMO_FACTS.anaPerson);
    await setChannelKind(db(), OLIVIA, "acme", created.id, "dm");
    expect(await recalledFor(db(), created.id, "ana")).toContain(DEMO_FACTS.anaPerson);
    // With a second person it is a group DM: no one's own facts there.
    await addChannelMember(db(), OLIVIA, "acme", created.id, "max");
    expect(await recalledFor(db(), created.id, "ana")).not.toContain(DEMO_FACTS.anaPerson);
  });
});

describe("channel members", () => {
  it("adds only people of the workspace; a person added reads the channel at once", async () => {
    const added = await addChannelMember(db(), OLIVIA, "acme", "leadership", "ana", 1);
    expect(added).toEqual({ status: "added", name: "Ana Alves", channel: "leadership", reveals: 1 });
    expect(await seenBy(db(), "ana")).toContain(BUDGET);
    expect(await recalledFor(db(), "leadership", "ana")).toContain(BUDGET);
    expect(await addChannelMember(db(), OLIVIA, "acme", "leadership", "ana")).toEqual({ status: "unchanged", name: "Ana Alves" });

    expect(await addChannelMember(db(), OLIVIA, "acme", "leadership", "gina")).toEqual({ status: "not_found" });
    expect(await addChannelMember(db(), OLIVIA, "acme", "lobby", "ana")).toEqual({ status: "not_found" });
    expect(await addChannelMember(db(), OLIVIA, "acme", "no-such-channel", "ana")).toEqual({ status: "not_found" });
    expect(await addChannelMember(db(), GINA, "globex", "leadership", "gina")).toEqual({ status: "not_found" });
    expect(await auditActions()).toEqual([["channel.member.add", "Ana Alves to #leadership (can now see 1 fact)"]]);
  });

  it("a person taken out of a private channel no longer sees or recalls its facts", async () => {
    expect(await removeChannelMember(db(), OLIVIA, "acme", "leadership", "max")).toEqual({ status: "removed", name: "Max Mills" });
    expect(await seenBy(db(), "max")).not.toContain(BUDGET);
    await expect(recalledFor(db(), "leadership", "max")).rejects.toMatchObject({ code: "cannot_read" });
    expect(await seenBy(db(), "olivia")).toContain(BUDGET);
    expect(await removeChannelMember(db(), OLIVIA, "acme", "leadership", "max")).toEqual({ status: "unchanged", name: "Max Mills" });
    expect(await removeChannelMember(db(), GINA, "globex", "leadership", "olivia")).toEqual({ status: "not_found" });
    expect(await auditActions()).toEqual([["channel.member.remove", "Max Mills from #leadership"]]);
  });

  it("a new channel's facts follow its members", async () => {
    const created = await createChannel(db(), OLIVIA, "acme", { name: "launch", kind: "private" });
    if (created.status !== "created") throw new Error("expected a channel");
    const id = created.id;
    await addChannelMember(db(), OLIVIA, "acme", id, "olivia");
    await addChannelMember(db(), OLIVIA, "acme", id, "max");
    const body = "The launch moves to May.";
    await remember(db(), {
      agentId: "scout",
      workspaceId: "acme",
      body,
      scope: "channel",
      scopeRef: id,
      scopeLabel: "#launch",
      source: { kind: "message", ref: null, label: "@olivia in #launch", channelId: id },
      by: { kind: "agent", id: "scout", name: "Scout" },
      pinned: false,
    });
    expect(await recalledFor(db(), id, "max")).toContain(body);
    expect(await seenBy(db(), "max")).toContain(body);
    await removeChannelMember(db(), OLIVIA, "acme", id, "max");
    expect(await seenBy(db(), "max")).not.toContain(body);
    await expect(recalledFor(db(), id, "max")).rejects.toMatchObject({ code: "cannot_read" });
    expect(await recalledFor(db(), id, "olivia")).toContain(body);
  });

  it("adds no one to a private channel or DM until the owner confirms how many facts they will see", async () => {
    await keepInChannel("dm-ana", "Ana's invoices go to finance@acme.test.");
    // A second agent's fact there counts too: the person sees every agent's facts of the channel.
    const helper = await createAgent(db(), OLIVIA, "acme", { handle: "helper", name: "Helper" });
    if (helper.status !== "created") throw new Error("expected an agent");
    await keepInChannel("dm-ana", "Ana is moving to Lisbon in June.", helper.id);

    const refused = { status: "needs_confirmation", name: "Gus Gray", channel: "dm-ana", reveals: 2 };
    expect(await addChannelMember(db(), OLIVIA, "acme", "dm-ana", "gus")).toEqual(refused);
    expect(await addChannelMember(db(), OLIVIA, "acme", "dm-ana", "gus", 1)).toEqual(refused);
    expect(await addChannelMember(db(), OLIVIA, "acme", "dm-ana", "gus", 0)).toEqual(refused);
    expect(await inChannel("dm-ana")).toEqual(["ana"]);
    await expect(recalledFor(db(), "dm-ana", "gus")).rejects.toMatchObject({ code: "cannot_read" });

    expect(await addChannelMember(db(), OLIVIA, "acme", "dm-ana", "gus", 2)).toEqual({
      status: "added",
      name: "Gus Gray",
      channel: "dm-ana",
      reveals: 2,
    });
    expect(await inChannel("dm-ana")).toEqual(["ana", "gus"]);
    // The audit names who and how many, never what the facts say.
    expect(await auditActions()).toEqual([
      ["agent.create", "@helper (Helper)"],
      ["channel.member.add", "Gus Gray to #dm-ana (can now see 2 facts)"],
    ]);
  });

  it("needs no confirmation where nothing new is shown: a public channel, an empty private one", async () => {
    expect(await addChannelMember(db(), OLIVIA, "acme", "support", "gus")).toEqual({
      status: "added",
      name: "Gus Gray",
      channel: "support",
      reveals: 0,
    });
    const created = await createChannel(db(), OLIVIA, "acme", { name: "quiet", kind: "private" });
    if (created.status !== "created") throw new Error("expected a channel");
    expect(await addChannelMember(db(), OLIVIA, "acme", created.id, "max")).toMatchObject({ status: "added", reveals: 0 });
    // Someone already in it is told so, whatever number is sent.
    expect(await addChannelMember(db(), OLIVIA, "acme", "leadership", "max")).toEqual({ status: "unchanged", name: "Max Mills" });
    expect((await auditActions()).filter(([action]) => action === "channel.member.add")).toEqual([
      ["channel.member.add", "Gus Gray to #support"],
      ["channel.member.add", "Max Mills to #quiet (can now see 0 facts)"],
    ]);
  });
});

describe("what a channel shows its readers", () => {
  it("counts every live or recently forgotten fact kept for the channel, and nothing else", async () => {
    const counts = async () => Object.fromEntries((await listChannels(db(), "acme")).map((c) => [c.id, c.facts]));
    expect(await counts()).toEqual({
      general: 0,
      support: 1,
      leadership: 1,
      "dm-ana": 0,
      "dm-gus": 0,
      "dm-max": 0,
      "group-max-ana": 1,
    });
    // Forgotten a day ago: still in "Recently forgotten", which readers open. Forgotten long ago: gone.
    const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
    await db().update(facts).set({ forgottenAt: dayAgo }).where(eq(facts.body, BUDGET));
    expect((await counts()).leadership).toBe(1);
    await db().update(facts).set({ forgottenAt: "2000-01-01T00:00:00.000Z" }).where(eq(facts.body, BUDGET));
    expect((await counts()).leadership).toBe(0);
    // Person and workspace facts are not the channel's, wherever they were said.
    await db().run(sql`UPDATE facts SET source_channel_id = 'general' WHERE scope <> 'channel'`);
    expect((await counts()).general).toBe(0);
  });
});

/** A channel fact kept by an agent, as if said in that channel. */
async function keepInChannel(channelId: string, body: string, agentId = "scout") {
  const kept = await remember(db(), {
    agentId,
    workspaceId: "acme",
    body,
    scope: "channel",
    scopeRef: channelId,
    scopeLabel: `#${channelId}`,
    source: { kind: "message", ref: null, label: `@ana in #${channelId}`, channelId },
    by: { kind: "agent", id: agentId, name: agentId },
    pinned: false,
  });
  if (kept.status !== "created") throw new Error(`expected a new fact, got ${kept.status}`);
}

async function inChannel(channelId: string): Promise<string[]> {
  const rows = await db().select({ userId: channelMembers.userId }).from(channelMembers).where(eq(channelMembers.channelId, channelId));
  return rows.map((row) => row.userId).sort();
}
