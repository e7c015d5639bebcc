/**
 * What the property tests of the rules and of a fact's text, wire shape and prompt
 * section draw from: ids from small pools so that workspaces, channels and people
 * collide (one id is both a person and a channel), scopes that are almost right,
 * text full of whitespace and control characters, and a builder for the facts a
 * person writes out by hand as examples.
 */
import fc from "fast-check";
import { SCOPES, type FactRow, type Scope } from "./rules";

/** Cheap properties run many times; the text ones (strings up to 2,000 characters) a little less. */
export const MANY = { numRuns: 5_000 };
export const TEXT = { numRuns: 2_000 };

export const PEOPLE = ["olivia", "max", "ana", "gus", "gina", "shared-1"];
export const CHANNELS = ["general", "support", "leadership", "dm-ana", "group-max-ana", "lobby", "shared-1"];
/** What a fact's scope_ref may hold: nothing (a workspace fact), a person or a channel. */
export const REFS = ["", ...new Set([...PEOPLE, ...CHANNELS])];

export const workspaceId = fc.constantFrom("acme", "globex", "initech");
export const personId = fc.constantFrom(...PEOPLE);
export const channelId = fc.constantFrom(...CHANNELS);

/** Scopes that look almost right, or anything at all, but are none of the three. */
export const unknownScope = fc
  .oneof(
    fc.constantFrom("", "Workspace", "PERSON", " channel", "channel ", "workspace ", " person", "user", "dm", "public"),
    fc.constantFrom("__proto__", "toString", "constructor"),
    fc.string(),
  )
  .filter((s) => !(SCOPES as readonly string[]).includes(s));

/** Mostly the three scopes, sometimes one that is none of them. */
export const scope = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<string>(...SCOPES) },
  { weight: 1, arbitrary: unknownScope },
);

/** Whitespace and control characters of every kind, lone surrogate halves, and a few ordinary characters. */
export const messyChar = fc.constantFrom(
  ...[" ", "  ", "\n", "\r", "\r\n", "\t", "\v", "\f", "\u00a0", "\u1680", "\u2003", "\u2028", "\u2029", "\u0085"],
  ...["\u202f", "\u3000", "\ufeff", "\u0000", "\u0007", "\u001b", "\u001f", "\u007f", "\u0084", "\u0086", "\u009f"],
  ...["\ud83d", "\ude00", "😀", "a", "Z", "é", "…", "#", "-", "x", "y", "z"],
);

/** A stored fact kept by the workspace's agent (scout in acme, echo elsewhere) from a message, unpinned. */
export function exampleFact(id: string, workspaceId: string, scope: Scope, scopeRef: string, body: string): FactRow {
  return {
    id,
    agentId: workspaceId === "acme" ? "scout" : "echo",
    workspaceId,
    scope,
    scopeRef,
    scopeLabel: null,
    body,
    sourceKind: "message",
    sourceRef: null,
    sourceLabel: null,
    sourceChannelId: null,
    createdBy: "scout",
    createdByKind: "agent",
    pinned: false,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
  };
}
