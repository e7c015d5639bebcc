/**
 * derivePlace over the demo workspace: the kind and the people come
 * from Mnemo's own tables, and anything that does not add up is refused.
 */
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { channelMembers, channels } from "@/db/schema";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { PlaceError, derivePlace } from "./place";

const t = tempDbForTests({ demo: true });

/** The PlaceError code derivePlace throws, or a failure if it throws something else or nothing. */
async function refusal(workspaceId: string, channelId: string, askerId: string | null): Promise<string> {
  try {
    const info = await derivePlace(t.db, workspaceId, channelId, askerId);
    throw new Error(`expected a refusal, got the place ${JSON.stringify(info.place)}`);
  } catch (error) {
    if (!(error instanceof PlaceError)) throw error;
    return error.code;
  }
}

describe("derivePlace: kind and people from the channel table", () => {
  it("a solo DM is a dm with its one person", async () => {
    const info = await derivePlace(t.db, "acme", "dm-ana", "ana");
    expect(info.place).toEqual({ workspaceId: "acme", channelId: "dm-ana", kind: "dm", people: ["ana"] });
    expect(info.channel).toEqual({ id: "dm-ana", name: "dm-ana", kind: "dm" });
    expect(info.asker).toEqual({ id: "ana", name: "Ana Alves", handle: "ana" });
  });

  it("a group DM is a dm with all its people, sorted", async () => {
    const info = await derivePlace(t.db, "acme", "group-max-ana", "max");
    expect(info.place).toEqual({
      workspaceId: "acme",
      channelId: "group-max-ana",
      kind: "dm",
      people: ["ana", "max"],
    });
  });

  it("a private channel is private with its members, whoever of them asks", async () => {
    for (const asker of ["max", "olivia"]) {
      const info = await derivePlace(t.db, "acme", "leadership", asker);
      expect(info.place).toEqual({
        workspaceId: "acme",
        channelId: "leadership",
        kind: "private",
        people: ["max", "olivia"],
      });
    }
  });

  it("a public channel is public with just the asker, even one who never joined it", async () => {
    const info = await derivePlace(t.db, "acme", "support", "gus");
    expect(info.place).toEqual({ workspaceId: "acme", channelId: "support", kind: "public", people: ["gus"] });
    expect(info.channel).toEqual({ id: "support", name: "support", kind: "public" });
    expect(info.asker).toEqual({ id: "gus", name: "Gus Gray", handle: "gus" });
  });

  it("with no asker, the place holds the channel's people (none for a public channel)", async () => {
    expect((await derivePlace(t.db, "acme", "general", null)).place).toEqual({
      workspaceId: "acme",
      channelId: "general",
      kind: "public",
      people: [],
    });
    expect((await derivePlace(t.db, "acme", "dm-max", null)).place.people).toEqual(["max"]);
    expect((await derivePlace(t.db, "acme", "leadership", null)).place.people).toEqual(["max", "olivia"]);
    expect((await derivePlace(t.db, "acme", "group-max-ana", null)).place.people).toEqual(["ana", "max"]);
    expect((await derivePlace(t.db, "acme", "general", null)).asker).toBeNull();
  });
});

describe("derivePlace: refusals", () => {
  it("an unknown channel is channel_not_found", async () => {
    expect(await refusal("acme", "no-such-channel", "ana")).toBe("channel_not_found");
    expect(await refusal("acme", "no-such-channel", null)).toBe("channel_not_found");
  });

  it("another workspace's channel is channel_not_found, exactly like a missing one", async () => {
    expect(await refusal("acme", "lobby", "olivia")).toBe("channel_not_found");
    expect(await refusal("acme", "lobby", "gina")).toBe("channel_not_found");
    expect(await refusal("acme", "dm-gina", null)).toBe("channel_not_found");
    expect(await refusal("globex", "general", "gina")).toBe("channel_not_found");
  });

  it("an unknown workspace is channel_not_found", async () => {
    expect(await refusal("nowhere", "general", "ana")).toBe("channel_not_found");
  });

  it("an asker who is not a member of the workspace is asker_not_member", async () => {
    expect(await refusal("acme", "general", "gina")).toBe("asker_not_member");
    expect(await refusal("acme", "dm-ana", "gina")).toBe("asker_not_member");
    expect(await refusal("acme", "general", "nobody")).toBe("asker_not_member");
    expect(await refusal("globex", "lobby", "ana")).toBe("asker_not_member");
  });

  it("an asker who cannot read the channel is cannot_read", async () => {
    expect(await refusal("acme", "leadership", "ana")).toBe("cannot_read");
    expect(await refusal("acme", "leadership", "gus")).toBe("cannot_read");
    expect(await refusal("acme", "dm-ana", "max")).toBe("cannot_read");
    expect(await refusal("acme", "group-max-ana", "olivia")).toBe("cannot_read");
  });

  it("a refusal is a PlaceError with a message that names no other workspace", async () => {
    await expect(derivePlace(t.db, "acme", "lobby", "ana")).rejects.toBeInstanceOf(PlaceError);
    await expect(derivePlace(t.db, "acme", "lobby", "ana")).rejects.not.toThrow(/globex|lobby/i);
  });
});

describe("derivePlace reads the tables at every call", () => {
  it("a person removed from a channel no longer counts, and can no longer ask there", async () => {
    expect((await derivePlace(t.db, "acme", "group-max-ana", "ana")).place.people).toEqual(["ana", "max"]);
    await t.db
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, "group-max-ana"), eq(channelMembers.userId, "max")));
    // Now a DM with Ana alone: a solo DM.
    expect((await derivePlace(t.db, "acme", "group-max-ana", "ana")).place).toEqual({
      workspaceId: "acme",
      channelId: "group-max-ana",
      kind: "dm",
      people: ["ana"],
    });
    expect(await refusal("acme", "group-max-ana", "max")).toBe("cannot_read");
  });

  it("a channel made private stops letting non-members in, and made public lets them in", async () => {
    expect((await derivePlace(t.db, "acme", "support", "gus")).place.kind).toBe("public");
    await t.db.update(channels).set({ kind: "private" }).where(eq(channels.id, "support"));
    expect(await refusal("acme", "support", "gus")).toBe("cannot_read");
    expect((await derivePlace(t.db, "acme", "support", "ana")).place).toEqual({
      workspaceId: "acme",
      channelId: "support",
      kind: "private",
      people: ["ana", "max"],
    });

    await t.db.update(channels).set({ kind: "public" }).where(eq(channels.id, "leadership"));
    expect((await derivePlace(t.db, "acme", "leadership", "ana")).place).toEqual({
      workspaceId: "acme",
      channelId: "leadership",
      kind: "public",
      people: ["ana"],
    });
  });

  it("a deleted channel is channel_not_found", async () => {
    await t.db.delete(channels).where(eq(channels.id, "dm-gus"));
    expect(await refusal("acme", "dm-gus", "gus")).toBe("channel_not_found");
  });
});
