/** The words a fact card shows for its recall count. */
import { expect, it } from "vitest";
import { recallUsageInWords } from "./usage-words";

const NOW = Date.parse("2026-05-01T12:00:00.000Z");
const before = (ms: number) => new Date(NOW - ms).toISOString();
const MINUTE = 60_000;
const DAY = 1440 * MINUTE;

it("says how often and how long ago, in words a person reads", () => {
  expect(recallUsageInWords(14, before(2 * DAY), NOW)).toBe("Recalled 14 times · last 2 days ago");
  expect(recallUsageInWords(1, before(DAY), NOW)).toBe("Recalled once · last 1 day ago");
  expect(recallUsageInWords(2, before(3 * 60 * MINUTE), NOW)).toBe("Recalled twice · last 3 hours ago");
  expect(recallUsageInWords(12_345, before(5 * MINUTE), NOW)).toBe("Recalled 12,345 times · last 5 minutes ago");
  expect(recallUsageInWords(3, before(40 * DAY), NOW)).toBe("Recalled 3 times · last 1 month ago");
  expect(recallUsageInWords(3, before(10_000), NOW)).toBe("Recalled 3 times · last moments ago");
});

it("a time ahead of this server's clock reads as moments ago, not as the future", () => {
  expect(recallUsageInWords(3, new Date(NOW + 5 * MINUTE).toISOString(), NOW)).toBe("Recalled 3 times · last moments ago");
});

it("never recalled, whichever half is missing", () => {
  expect(recallUsageInWords(0, null, NOW)).toBe("Never recalled");
  expect(recallUsageInWords(0, before(DAY), NOW)).toBe("Never recalled");
  expect(recallUsageInWords(4, null, NOW)).toBe("Never recalled");
});
