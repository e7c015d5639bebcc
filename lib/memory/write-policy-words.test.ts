import { describe, expect, it } from "vitest";
import { settingWaitInWords, waitingInWords } from "./write-policy-words";

describe("waitingInWords", () => {
  it("names what waits, and for whom, for each setting, by the scopes' one names", () => {
    expect(waitingInWords("Scout", "Acme", { workspaceFacts: "wait", channelFacts: "keep" })).toBe(
      "Scout's facts for Everyone in Acme wait for an owner's approval.",
    );
    expect(waitingInWords("Scout", "Acme", { workspaceFacts: "keep", channelFacts: "wait" })).toBe(
      "Scout's facts for Channels wait for approval by someone in the channel.",
    );
    expect(waitingInWords("Scout", "Acme", { workspaceFacts: "wait", channelFacts: "wait" })).toBe(
      "Scout's facts for Everyone in Acme wait for an owner's approval; its facts for Channels, for approval by someone in the channel.",
    );
    // Instruction-like text waits whatever the setting, so "nothing waits" would be untrue.
    expect(waitingInWords("Scout", "Acme", { workspaceFacts: "keep", channelFacts: "keep" })).toBe(
      "Scout keeps its facts at once; only those that read like instructions wait for a person's approval.",
    );
  });
});

describe("settingWaitInWords", () => {
  it("says which setting made a proposal wait, by its scope's one name", () => {
    expect(settingWaitInWords("Scout", "Acme", "workspace")).toBe("Waits because Scout's facts for Everyone in Acme wait for an owner.");
    expect(settingWaitInWords("Scout", "Acme", "channel")).toBe("Waits because Scout's facts for Channels wait for someone in the channel.");
    expect(settingWaitInWords("Scout", "Acme", "person")).toBe("Waits for your approval.");
  });
});
