/**
 * The one list of a fact's columns the app reads, for plain SQL: each column of
 * the `facts` table under StoredFact's name (`agent_id AS agentId`), qualified so
 * that it reads the same in a join. `pinned` comes back as 0 or 1 — storedFact
 * makes it a boolean.
 */
import { facts } from "@/db/schema";
import type { FactRow } from "./rules";

/** `lineSize`: the line's token size as the row keeps it (token-budget.ts); missing where a fact was not read from its row. */
export type StoredFact = FactRow & { version: number; forgottenAt: string | null; lineSize?: number | null };

/**
 * A fact as recall reads it, its seq still on it: what postings name it by, and what
 * its recall is counted under (usage.ts). A question's candidates are the rows read,
 * made StoredFacts in place (recall-candidates.ts): a copy of two dozen fields per row,
 * at a million facts where most rows are read afresh, was ~0.4 µs a row, and a copy's
 * own shape made the values kept on it (row-memo.ts) slower to add. The seq never
 * leaves the server: every answer takes a fact's fields by name (wire.ts,
 * prompt-section.ts), never the object whole.
 */
export type CandidateFact = StoredFact & { seq: number };

/** StoredFact's fields, in FACT_COLUMNS' order. */
export const FACT_FIELDS = [
  "id",
  "agentId",
  "workspaceId",
  "scope",
  "scopeRef",
  "scopeLabel",
  "body",
  "sourceKind",
  "sourceRef",
  "sourceLabel",
  "sourceChannelId",
  "createdBy",
  "createdByKind",
  "pinned",
  "correctedAt",
  "version",
  "createdAt",
  "updatedAt",
  "forgottenAt",
  "validUntil",
  "proposedAt",
  "proposalReason",
  "lineSize",
] as const satisfies readonly (keyof StoredFact & keyof typeof facts.$inferSelect)[];

export const FACT_COLUMNS = FACT_FIELDS.map((field) => `facts.${facts[field].name} AS ${field}`).join(", ");

/** A row read with FACT_COLUMNS. */
export type FactColumnsRow = Omit<StoredFact, "pinned"> & { pinned: number | boolean };

/** CandidateFact's columns: FACT_COLUMNS and the seq. */
export const CANDIDATE_COLUMNS = `${FACT_COLUMNS}, facts.seq AS seq`;
/** CandidateFact's fields, in CANDIDATE_COLUMNS' order. */
export const CANDIDATE_FIELDS = [...FACT_FIELDS, "seq"];
/** A row read with CANDIDATE_COLUMNS. */
export type CandidateRow = FactColumnsRow & { seq: number };

export function storedFact<Row extends FactColumnsRow>(row: Row): Omit<Row, "pinned"> & { pinned: boolean } {
  return { ...row, pinned: !!row.pinned };
}
