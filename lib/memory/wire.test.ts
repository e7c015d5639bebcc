/**
 * The wire shape: every stored row, however odd its values, becomes exactly the
 * fields the agent API's schema promises, an unknown value falling back to a known one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SCOPES, type FactRow } from "./rules";
import { MANY, REFS, channelId, exampleFact, personId, scope, workspaceId } from "./test-facts";
import { keepMemos, keepsMemos } from "./row-memo";
import { memoryJsonOpen, toMemory } from "./wire";

describe("toMemory", () => {
  const row: fc.Arbitrary<FactRow> = fc.record({
    id: fc.string(),
    agentId: fc.string(),
    workspaceId,
    scope,
    scopeRef: fc.constantFrom(...REFS),
    scopeLabel: fc.option(fc.string(), { nil: null }),
    body: fc.string(),
    sourceKind: fc.oneof(fc.constantFrom("message", "session", "person", "Person", "agent", ""), fc.string()),
    sourceRef: fc.option(fc.string(), { nil: null }),
    sourceLabel: fc.option(fc.string(), { nil: null }),
    sourceChannelId: fc.option(channelId, { nil: null }),
    createdBy: personId,
    createdByKind: fc.oneof(fc.constantFrom("agent", "user", "person", "Agent", "agent ", ""), fc.string()),
    pinned: fc.boolean(),
    validUntil: fc.option(fc.constant("2026-12-12"), { nil: null }),
    proposedAt: fc.option(fc.constant("2025-01-02T03:04:05.000Z"), { nil: null }),
    createdAt: fc.constant("2025-01-02T03:04:05.000Z"),
    updatedAt: fc.constant("2025-02-03T04:05:06.000Z"),
  });

  it("toMemory gives the wire shape, and a value the API promises in place of any unknown one", () => {
    fc.assert(
      fc.property(row, (r) => {
        const m = toMemory(r);
        expect(Object.keys(m).sort()).toEqual(
          [
            "id", "agent_id", "scope", "scope_ref", "scope_label", "body", "source_kind", "source_ref",
            "source_label", "source_channel_id", "created_by", "created_by_kind", "pinned", "valid_until", "status",
            "created_at", "updated_at",
          ].sort(),
        );
        expect(m.scope).toBe((SCOPES as readonly string[]).includes(r.scope) ? r.scope : "channel");
        expect(m.source_kind).toBe(["message", "session", "person"].includes(r.sourceKind) ? r.sourceKind : "person");
        expect(m.created_by_kind).toBe(r.createdByKind === "agent" ? "agent" : "user");
        expect(typeof m.pinned).toBe("boolean");
        expect(m.pinned).toBe(r.pinned);
        expect([m.id, m.agent_id, m.scope_ref, m.scope_label, m.body]).toEqual([
          r.id, r.agentId, r.scopeRef, r.scopeLabel, r.body,
        ]);
        expect([m.source_ref, m.source_label, m.source_channel_id, m.created_by]).toEqual([
          r.sourceRef, r.sourceLabel, r.sourceChannelId, r.createdBy,
        ]);
        expect([m.created_at, m.updated_at]).toEqual([r.createdAt, r.updatedAt]);
        expect(m.valid_until).toBe(r.validUntil);
        expect(m.status).toBe(r.proposedAt ? "proposed" : "live");
      }),
      MANY,
    );
  });

  it("toMemory turns SQLite's 0/1 pin into a boolean", () => {
    const releases = exampleFact("releases", "acme", "workspace", "", "Releases go out on Thursdays.");
    const base = { ...releases, pinned: 1 as unknown as boolean };
    expect(toMemory(base).pinned).toBe(true);
    expect(toMemory({ ...base, pinned: 0 as unknown as boolean }).pinned).toBe(false);
  });

  it("memoryJsonOpen is made once per row that keeps memos, afresh for any other, and a copy of the row gets JSON of its own", () => {
    const row = exampleFact("releases", "acme", "workspace", "", "Releases go out on Thursdays.");
    const body = row.body;
    // A row recall does not keep (or keeps without room for its memos): worked out each time it is asked.
    expect(JSON.parse(`${memoryJsonOpen(row)}}`)).toEqual(toMemory(row));
    row.body = "Releases go out whenever.";
    expect(JSON.parse(`${memoryJsonOpen(row)}}`).body).toBe("Releases go out whenever.");
    row.body = body;
    expect(Object.getOwnPropertySymbols(row)).toEqual([]);
    // Marked by the rows cache: kept with the row. Rows are never changed once read, so a change in place (which no
    // caller makes) is not seen.
    expect(keepMemos(row)).toBe(true);
    expect(keepMemos(row)).toBe(false);
    const json = memoryJsonOpen(row);
    expect(JSON.parse(`${json}}`)).toEqual(toMemory(row));
    row.body = "Releases go out whenever.";
    expect(memoryJsonOpen(row)).toBe(json);
    row.body = body;
    // A copy (a corrected fact is a new row) makes its own and keeps nothing: neither the mark nor the kept JSON is
    // enumerable, so no spread carries them.
    const corrected = { ...row, body: "Releases go out on Fridays." };
    expect(JSON.parse(`${memoryJsonOpen(corrected)}}`).body).toBe("Releases go out on Fridays.");
    expect(keepsMemos(corrected)).toBe(false);
    // A frozen row cannot be marked, and is worked out each time.
    expect(keepMemos(Object.freeze({ ...row }))).toBe(false);
    const kept = Object.getOwnPropertySymbols(row);
    expect(kept.length).toBe(2);
    expect(kept.every((key) => !Object.getOwnPropertyDescriptor(row, key)!.enumerable)).toBe(true);
  });
});
