/** The labels Mnemo writes on a fact: who said it where, in words a person reads. */
import { describe, expect, it } from "vitest";
import { channelLabel, scopeName, sourceLabelFor } from "./labels";

describe("labels", () => {
  it("source labels say who said it where", () => {
    expect(sourceLabelFor("message", "ana", { name: "support", kind: "public" })).toBe("@ana in #support");
    expect(sourceLabelFor("message", "ana", { name: "dm-ana", kind: "dm" })).toBe("@ana in a direct message");
    expect(sourceLabelFor("session", "ana", { name: "ops", kind: "private" })).toBe("a session in #ops");
  });
});

describe("scope and channel names", () => {
  it("gives each scope one name, the workspace's by its name", () => {
    expect(["workspace", "channel", "person"].map((s) => scopeName(s as "workspace", "Acme"))).toEqual([
      "Everyone in Acme",
      "Channels",
      "Just you",
    ]);
  });

  it("names a DM by its people, never by its internal name", () => {
    expect(channelLabel("public", "support", false, ["Ana"])).toBe("#support");
    expect(channelLabel("dm", "dm-ana", true, [])).toBe("Your DM");
    expect(channelLabel("dm", "group-max-ana", false, ["Ana Alves", "Max Mills", "Gus Gray"])).toBe(
      "DM with Ana Alves, Max Mills and Gus Gray",
    );
  });
});
