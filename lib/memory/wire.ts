/**
 * A fact as agents, the MCP tools and the facts file receive it: the `memory`
 * schema of lib/validation/agent-api.ts, which the OpenAPI document is made from.
 * Stored values the schema does not know fall back to ones it does (channel, person, user),
 * so an odd row never leaves the server in a shape the document does not promise.
 */
import type { Memory } from "@/lib/validation/agent-api";
import { rowMemo } from "./row-memo";
import { SCOPES, type FactRow } from "./rules";

function oneOf<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

export function toMemory(row: FactRow): Memory {
  return {
    id: row.id,
    agent_id: row.agentId,
    scope: oneOf(row.scope, SCOPES, "channel"),
    scope_ref: row.scopeRef,
    scope_label: row.scopeLabel,
    body: row.body,
    source_kind: oneOf(row.sourceKind, ["message", "session", "person"] as const, "person"),
    source_ref: row.sourceRef,
    source_label: row.sourceLabel,
    source_channel_id: row.sourceChannelId,
    created_by: row.createdBy,
    created_by_kind: row.createdByKind === "agent" ? "agent" : "user",
    // SQLite hands back 0 and 1.
    pinned: !!row.pinned,
    status: row.proposedAt ? "proposed" : "live",
    valid_until: row.validUntil ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

// Kept with the row object: recall keeps a row per agent memory version (recall-candidates.ts), so its JSON is made once.
const OPEN_JSON = Symbol("memoryJsonOpen");

/** toMemory(row) as JSON without its closing brace, so a receipt can follow it. */
export function memoryJsonOpen(row: FactRow): string {
  return rowMemo(row, OPEN_JSON, () => JSON.stringify(toMemory(row)).slice(0, -1));
}
