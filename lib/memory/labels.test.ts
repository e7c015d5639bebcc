/** The labels Mnemo writes on a fact: who said it where, in words a person reads. */
import { describe, expect, it } from "vitest";
import { sourceLabelFor } from "./labels";

describe("labels", () => {
  it("source labels say who said it where", () => {
    expect(sourceLabelFor("message", "ana", { name: "support", kind: "public" })).toBe("@ana in #support");
    expect(sourceLabelFor("message", "ana", { name: "dm-ana", kind: "dm" })).toBe("@ana in a direct message");
    expect(sourceLabelFor("session", "ana", { name: "ops", kind: "private" })).toBe("a session in #ops");
  });
});
