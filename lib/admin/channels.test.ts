/**
 * Owners managing channels, on real database files seeded with the demo. Each
 * change must show in the very next recall and listing: the place and the
 * visibility rule read these rows on every request.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { channels, facts } from "@/db/schema";
import { remember } from "@/lib/memory/writes";
import { freshDemoForEachTest, recalledFor, seenBy } from "@/lib/testing/demo-db";
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
const ANA_PREFERS = "Ana prefers replies in Portuguese."; // ana's person fact

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
    expect(await recalledFor(db(), created.id, "ana")).not.toContain(ANA_PREFERS);
    await setChannelKind(db(), OLIVIA, "acme", created.id, "dm");
    expect(await recalledFor(db(), created.id, "ana")).toContain(ANA_PREFERS);
    // With a second person it is a group DM: no one's own facts there.
    await addChannelMember(db(), OLIVIA, "acme", created.id, "max");
    expect(await recalledFor(db(), created.id, "ana")).not.toContain(ANA_PREFERS);
  });
});

describe("channel members", () => {
  it("adds only people of the workspace; a person added reads the channel at once", async () => {
    expect(await addChannelMember(db(), OLIVIA, "acme", "leadership", "ana")).toEqual({ status: "added", name: "Ana Alves" });
    expect(await seenBy(db(), "ana")).toContain(BUDGET);
    expect(await recalledFor(db(), "leadership", "ana")).toContain(BUDGET);
    expect(await addChannelMember(db(), OLIVIA, "acme", "leadership", "ana")).toEqual({ status: "unchanged", name: "Ana Alves" });

    expect(await addChannelMember(db(), OLIVIA, "acme", "leadership", "gina")).toEqual({ status: "not_found" });
    expect(await addChannelMember(db(), OLIVIA, "acme", "lobby", "ana")).toEqual({ status: "not_found" });
    expect(await addChannelMember(db(), OLIVIA, "acme", "no-such-channel", "ana")).toEqual({ status: "not_found" });
    expect(await addChannelMember(db(), GINA, "globex", "leadership", "gina")).toEqual({ status: "not_found" });
    expect(await auditActions()).toEqual([["channel.member.add", "Ana Alves to #leadership"]]);
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
});
