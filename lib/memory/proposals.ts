/**
 * Proposals (issue #15): facts an agent wrote that wait for a person before any
 * agent recalls them — workspace facts by default, channel facts when the agent's
 * setting says so, and text that reads as an instruction always. They are rows of
 * `facts` with `proposed_at` set (counted toward MAX_FACTS, deduplicated like live
 * facts, never recalled: `recallable` and its SQL twin). Who may decide one is who
 * may change it (changeableBy / changeableSql): owners for workspace facts, the
 * channel's readers for channel facts, the person for their own. Each decision is
 * a history event in the same transaction; approving changes the row, so the
 * memory-version triggers (drizzle/0005) make the agent's next recall see it.
 *
 * Names and shapes here are what the Inbox (helper D) builds on; a change to them
 * is written at the top of this comment.
 */
import { readAll, readOne, writeTransaction, type Conn } from "@/db/client";
import { agents, memberships } from "@/db/schema";
import { and, eq } from "drizzle-orm";
import { recordAudit, type AuditActor } from "@/lib/admin/audit";
import { nowIso } from "@/lib/ids";
import { MAX_DECLINE_REASON } from "@/lib/validation/fields";
import { FACT_COLUMNS, storedFact, type FactColumnsRow, type StoredFact } from "./fact-columns";
import { dedupeKey } from "./fact-text";
import { looksLikeInstruction } from "./instruction-text";
import type { ProposalReason, WritePolicies, WritePolicy } from "./rules";
import { retireIntendedReplacements } from "./replace";
import { changeableSql, type ViewerRef } from "./rules-sql";
import {
  changeableFact,
  checkText,
  findTwin,
  moveToForgotten,
  personActor,
  recordEvent,
  writeCorrection,
  type PersonActor,
  type TextProblem,
} from "./writes";

/** A proposal as the Inbox shows it: the fact, why it waits and, for instruction-like text, the detector's verdict. */
export type Proposal = StoredFact & {
  proposedAt: string;
  proposalReason: ProposalReason;
  /** For "instruction": the words that matched (the detector's `why`), derived again from the text; else null. */
  why: string | null;
  /** For "instruction": the detector rule's name (its `kind`); else null. */
  rule: string | null;
};

/** Reasons a stored row may hold; anything else reads as the setting (it waits either way). */
function reasonOf(value: string | null | undefined): ProposalReason {
  return value === "instruction" ? "instruction" : "setting";
}

/** A stored proposal row with its reason and, for instruction-like text, the detector's verdict read again. */
export function toProposal(fact: StoredFact): Proposal {
  const proposalReason = reasonOf(fact.proposalReason);
  // The detector is pure: its verdict is derived at display time rather than stored as prose.
  const verdict = proposalReason === "instruction" ? looksLikeInstruction(fact.body) : { flagged: false as const };
  return {
    ...fact,
    proposedAt: fact.proposedAt ?? fact.createdAt,
    proposalReason,
    why: verdict.flagged ? verdict.why : null,
    rule: verdict.flagged ? verdict.kind : null,
  };
}

/** Waiting proposals this person may decide, in the SQL: live rows with proposed_at, passing changeableSql. */
function decidableWhere(viewer: ViewerRef) {
  const changeable = changeableSql(viewer);
  return {
    text: `facts.forgotten_at IS NULL AND facts.proposed_at IS NOT NULL AND ${changeable.text}`,
    args: changeable.args,
  };
}

/** The Inbox: the proposals of this agent this person may decide, newest first (at most `limit`). */
export async function proposalsFor(db: Conn, viewer: ViewerRef, agentId: string, limit = 200): Promise<Proposal[]> {
  const where = decidableWhere(viewer);
  const rows = await readAll<FactColumnsRow>(
    db,
    `SELECT ${FACT_COLUMNS} FROM facts WHERE facts.agent_id = ? AND ${where.text}
      ORDER BY facts.proposed_at DESC, facts.id DESC LIMIT ?`,
    [agentId, ...where.args, limit],
  );
  return rows.map((row) => toProposal(storedFact(row)));
}

/** Per agent of the workspace, how many proposals this person may decide (agents with none are left out). */
export async function proposalCounts(db: Conn, viewer: ViewerRef, workspaceId: string): Promise<Map<string, number>> {
  const where = decidableWhere(viewer);
  const rows = await readAll<{ agentId: string; n: number }>(
    db,
    `SELECT facts.agent_id AS agentId, count(*) AS n FROM facts
      WHERE facts.workspace_id = ? AND ${where.text} GROUP BY facts.agent_id`,
    [workspaceId, ...where.args],
  );
  return new Map(rows.map((row) => [row.agentId, Number(row.n)]));
}

export type ApproveResult =
  | { status: "approved"; fact: StoredFact }
  | { status: "not_found" }
  | { status: "stale"; current: { body: string; version: number } }
  | { status: "duplicate" }
  | { status: "refused"; problem: TextProblem };

const APPROVE_SQL = (changeable: string) => `UPDATE facts SET proposed_at = NULL, proposal_reason = NULL, updated_at = ?,
    version = version + 1
  WHERE facts.id = ? AND facts.agent_id = ? AND facts.forgotten_at IS NULL AND facts.proposed_at IS NOT NULL AND ${changeable}
  RETURNING ${FACT_COLUMNS}`;

/**
 * A person approves a proposal they may decide: it becomes live (newest, so recall
 * sees it first among unpinned facts). With `edit`, its text is first changed as
 * correctFact changes it — cleaned, never a secret, from the version the person
 * started from, never into a twin of another fact — and the event keeps both texts.
 * "not_found" for a missing fact, one not waiting, and one they may not decide alike.
 */
export async function approveProposal(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
  edit?: { body: unknown; fromVersion: number },
): Promise<ApproveResult> {
  let body: string | null = null;
  if (edit) {
    const text = checkText(edit.body);
    if (!("body" in text)) return { status: "refused", problem: text };
    body = text.body;
  }
  return writeTransaction(db, async (writes): Promise<ApproveResult> => {
    const current = await changeableFact(writes, viewer, agentId, factId);
    if (!current?.proposedAt) return { status: "not_found" };
    const at = nowIso();
    if (edit && body !== null && body !== current.body) {
      if (current.version !== edit.fromVersion) {
        return { status: "stale", current: { body: current.body, version: current.version } };
      }
      if (await findTwin(writes, { ...current, bodyKey: dedupeKey(body) }, current.id)) return { status: "duplicate" };
      const fact = await writeCorrection(writes, viewer, agentId, factId, edit.fromVersion, body, at, true);
      if (!fact) return { status: "not_found" };
      await recordEvent(writes, factId, "approve", personActor(viewer), current.body, body, at);
      // A proposal written with `replaces` retires the old fact now (replace.ts).
      await retireIntendedReplacements(writes, factId, personActor(viewer), at, changeableSql(viewer));
      return { status: "approved", fact };
    }
    const changeable = changeableSql(viewer);
    const [row] = await writes.all<FactColumnsRow>(APPROVE_SQL(changeable.text), [
      at,
      factId,
      agentId,
      ...changeable.args,
    ]);
    if (!row) return { status: "not_found" };
    await recordEvent(writes, factId, "approve", personActor(viewer), null, null, at);
    await retireIntendedReplacements(writes, factId, personActor(viewer), at, changeableSql(viewer));
    return { status: "approved", fact: storedFact(row) };
  });
}

/**
 * A person declines a proposal they may decide: it goes to Recently forgotten with
 * a `decline` event (the reason, cut to MAX_DECLINE_REASON, as its `after`).
 * Restored from there, it comes back as a proposal, never live.
 */
export async function declineProposal(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
  reason?: string | null,
): Promise<{ status: "declined" | "not_found" }> {
  const said = reason?.replace(/\s+/g, " ").trim().slice(0, MAX_DECLINE_REASON) || null;
  return writeTransaction(db, async (writes) => {
    const where = decidableWhere(viewer);
    const rule = { text: `facts.id = ? AND facts.agent_id = ? AND ${where.text}`, args: [factId, agentId, ...where.args] };
    const declined = await moveToForgotten(writes, factId, rule, personActor(viewer), { kind: "decline", after: said });
    return { status: declined ? ("declined" as const) : ("not_found" as const) };
  });
}

function policyInWords(scope: "workspace" | "channel", policy: WritePolicy): string {
  if (policy === "keep") return "kept at once";
  return scope === "workspace" ? "wait for an owner" : "wait for someone in the channel";
}

/**
 * An owner sets whether an agent's workspace and channel facts wait for a person,
 * recorded in the audit list. The actor must own the workspace (checked here too,
 * not only by the page); the command line (OPERATOR) may as well.
 */
export async function setWritePolicies(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  agentId: string,
  policies: WritePolicies,
): Promise<{ status: "changed" | "unchanged" | "not_found" | "forbidden" }> {
  return db.transaction(async (tx) => {
    if (actor.id !== "operator") {
      const [owner] = await tx
        .select({ role: memberships.role })
        .from(memberships)
        .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, actor.id), eq(memberships.role, "owner")))
        .limit(1);
      if (!owner) return { status: "forbidden" as const };
    }
    const [agent] = await tx
      .select({ handle: agents.handle, workspaceFacts: agents.workspaceFacts, channelFacts: agents.channelFacts })
      .from(agents)
      .where(and(eq(agents.id, agentId), eq(agents.workspaceId, workspaceId)))
      .limit(1);
    if (!agent) return { status: "not_found" as const };
    if (agent.workspaceFacts === policies.workspaceFacts && agent.channelFacts === policies.channelFacts) {
      return { status: "unchanged" as const };
    }
    await tx
      .update(agents)
      .set({ workspaceFacts: policies.workspaceFacts, channelFacts: policies.channelFacts })
      .where(and(eq(agents.id, agentId), eq(agents.workspaceId, workspaceId)));
    await recordAudit(
      tx,
      workspaceId,
      actor,
      "agent.write_policies",
      `@${agent.handle}: workspace facts ${policyInWords("workspace", policies.workspaceFacts)}, ` +
        `channel facts ${policyInWords("channel", policies.channelFacts)}`,
    );
    return { status: "changed" as const };
  });
}

// A kept statement, not the query builder: every remember reads it, and the builder prepared it afresh each
// time (remember at a million facts was 3.6 % faster without, BENCHMARKS.md).
const POLICIES_SQL = `SELECT workspace_facts AS workspaceFacts, channel_facts AS channelFacts FROM agents
  WHERE id = ? AND workspace_id = ? LIMIT 1`;

/** An agent's two settings, or null for an agent not of this workspace. */
export async function writePolicies(db: Conn, workspaceId: string, agentId: string): Promise<WritePolicies | null> {
  return (await readOne<WritePolicies>(db, POLICIES_SQL, [agentId, workspaceId])) ?? null;
}
