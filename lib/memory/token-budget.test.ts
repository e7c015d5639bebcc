/**
 * The section's size is counted line by line; these prove the sum is the size the
 * tokenizer gives the whole section, for any text a fact may hold.
 */
import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import type { StoredFact } from "./fact-columns";
import { memorySection } from "./prompt-section";
import { Section, sizedLine, storedLineSize } from "./token-budget";

const fact = (i: number, body: string, sourceLabel: string | null, pinned: boolean): StoredFact => ({
  id: `fact_${i}`,
  agentId: "scout",
  workspaceId: "acme",
  scope: (["workspace", "channel", "person"] as const)[i % 3],
  scopeRef: i % 3 ? "x" : "",
  scopeLabel: null,
  body,
  sourceKind: "message",
  sourceRef: null,
  sourceLabel,
  sourceChannelId: null,
  createdBy: "scout",
  createdByKind: "agent",
  pinned,
  correctedAt: null,
  version: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
  forgottenAt: null,
});

// Text as facts hold it: words, numbers, punctuation, other scripts, emoji, and newlines the section flattens.
const text = fc.string({ unit: fc.constantFrom(..."ab Zé 9,.;:)([]-—\n\t`'\"#@$%日本ñ😀".split(/(?:)/u)), minLength: 1, maxLength: 80 });

describe("the section's size", () => {
  it("is the sum of its lines' sizes, exactly, for any facts", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.option(text), fc.boolean()), { minLength: 1, maxLength: 12 }), (rows) => {
        const facts = rows.map(([body, label, pinned], i) => fact(i, body, label, pinned));
        const section = new Section();
        for (const each of facts) section.add(sizedLine(each));
        expect(section.text()).toBe(memorySection(facts));
        expect(section.tokens).toBe(countTokens(memorySection(facts)!));
      }),
      { numRuns: 300 },
    );
  });

  it("counts a line followed by a newline as the tokenizer does, for any fact", () => {
    fc.assert(
      fc.property(text, fc.option(text), fc.boolean(), fc.nat(2), (body, label, pinned, i) => {
        const sized = sizedLine(fact(i, body, label, pinned));
        expect([sized.last, sized.inside]).toEqual([countTokens(sized.line), countTokens(`${sized.line}\n`)]);
      }),
      { numRuns: 1000 },
    );
  });

  it("is 0, with no section, before the first line", () => {
    const section = new Section();
    expect([section.tokens, section.text()]).toEqual([0, null]);
  });
});

describe("a line's size kept with its row", () => {
  it("is the size the tokenizer gives the line, and a section of rows that keep it sums as exactly", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.option(text), fc.boolean()), { minLength: 1, maxLength: 8 }), (rows) => {
        // New objects each run: nothing is kept for them yet but what the row says.
        const facts = rows.map(([body, label, pinned], i) => {
          const row = fact(i, body, label, pinned);
          return { ...row, lineSize: storedLineSize(row) };
        });
        const section = new Section();
        for (const each of facts) section.add(sizedLine(each));
        expect(section.tokens).toBe(countTokens(memorySection(facts)!));
      }),
      { numRuns: 300 },
    );
  });

  it("is what recall uses for the line it was counted for", () => {
    const row = fact(1, "Refunds over $500 need a manager's approval.", "@ana", false);
    const stored = storedLineSize(row)!;
    // The same hash with a size one token larger: only a size that is read from the row can show up as this.
    const sized = sizedLine({ ...row, lineSize: stored + 4 });
    expect(sized.last).toBe(countTokens(sized.line) + 1);
  });

  it("is not used once the line changed: a pin, a new text, another source, another id", () => {
    const row = fact(2, "Refunds over $500 need a manager's approval.", "@ana", false);
    const stored = storedLineSize(row)!;
    const changed = [
      { ...row, pinned: true },
      { ...row, body: "Refunds over $5,000 need the CFO's approval." },
      { ...row, sourceLabel: "@max" },
      { ...row, id: "fact_other" },
    ];
    for (const each of changed) {
      // A wrong size beside the row's hash: counted instead, so the size is exact.
      const sized = sizedLine({ ...each, lineSize: stored + 4 });
      expect([sized.last, sized.inside]).toEqual([countTokens(sized.line), countTokens(`${sized.line}\n`)]);
    }
  });
});
