import { describe, expect, it } from "vitest";
import { settingWaitInWords, waitingInWords } from "./write-policy-words";

describe("waitingInWords", () => {
  it("names what waits, and for whom, for each setting", () => {
    expect(waitingInWords("Scout", { workspaceFacts: "wait", channelFacts: "keep" })).toBe(
      "Workspace facts from Scout wait for an owner's approval.",
    );
    expect(waitingInWords("Scout", { workspaceFacts: "keep", channelFacts: "wait" })).toBe(
      "Channel facts from Scout wait for approval by someone in the channel.",
    );
    expect(waitingInWords("Scout", { workspaceFacts: "wait", channelFacts: "wait" })).toBe(
      "Workspace facts from Scout wait for an owner's approval, and channel facts for approval by someone in the channel.",
    );
    // Instruction-like text waits whatever the setting, so "nothing waits" would be untrue.
    expect(waitingInWords("Scout", { workspaceFacts: "keep", channelFacts: "keep" })).toBe(
      "Scout keeps its facts at once; only those that read like instructions wait for a person's approval.",
    );
  });
});

describe("settingWaitInWords", () => {
  it("says which setting made a proposal wait, by its scope", () => {
    expect(settingWaitInWords("Scout", "workspace")).toBe("Waits because workspace facts from Scout wait for an owner.");
    expect(settingWaitInWords("Scout", "channel")).toBe("Waits because channel facts from Scout wait for someone in the channel.");
    expect(settingWaitInWords("Scout", "person")).toBe("Waits for your approval.");
  });
});
