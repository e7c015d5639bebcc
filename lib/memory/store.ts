/**
 * Reading facts, all through readAll and readOne (db/reader.ts). Every query here applies the
 * rules in SQL (rules-sql.ts for people, the place for agents) and then, where rows
 * leave for an agent, once more in code with the pure rule. Writes live in writes.ts.
 */
import { allOf, readAll, readOne, type Conn, type SqlPart } from "@/db/client";
import type { factEvents } from "@/db/schema";
import { displayNameSql } from "@/lib/person-name";
import { RECALL_LIMIT, recallable, soloPerson, utcDay, type Place, type Scope } from "./rules";
import { CANDIDATE_COLUMNS, FACT_COLUMNS, storedFact, type CandidateFact, type CandidateRow, type FactColumnsRow, type StoredFact } from "./fact-columns";
import { NOT_PROPOSED_SQL, UNEXPIRED_SQL, changeableSql, shownSql, unexpiredSql, visibleSql, type ViewerRef } from "./rules-sql";
import { ftsQuery } from "./search";
import { encodeCursor, keysetSql, orderBySql, type Cursor, type FactOrder } from "./fact-order";

export type { StoredFact } from "./fact-columns";
/**
 * A fact as the Memory page lists it: with the name of the person who told it, if a
 * person did, and how often agents recalled it (lib/memory/usage.ts) and when last.
 */
export type ListedFact = StoredFact & { createdByName: string | null; recalledCount: number; lastRecalledAt: string | null };

/**
 * One recall branch's live, unexpired facts, proposals left out: an index range of facts_recall_idx.
 * Parameters: branchArgs. Every reader of a branch (newest 40, count, word indexes) uses it.
 */
export const BRANCH_WHERE = `agent_id = ? AND scope = ? AND scope_ref = ? AND forgotten_at IS NULL AND workspace_id = ? AND ${UNEXPIRED_SQL} AND ${NOT_PROPOSED_SQL}`;

export function branchArgs(agentId: string, workspaceId: string, branch: RecallBranch, today: string): string[] {
  return [agentId, branch.scope, branch.ref, workspaceId, today];
}

/** One scope's newest unexpired facts for recall, with their seq, walked straight off facts_recall_idx. Parameters: branchArgs. */
const RECALL_BRANCH = `SELECT * FROM (SELECT ${CANDIDATE_COLUMNS} FROM facts WHERE ${BRANCH_WHERE}
    ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ${RECALL_LIMIT})`;
// The branches' columns go by StoredFact's names.
const RECALL_ORDER = ` ORDER BY pinned DESC, updatedAt DESC, id DESC LIMIT ${RECALL_LIMIT}`;
/** Workspace and channel facts; with a third branch, a solo DM's person facts too. */
export const RECALL_SQL = {
  twoScopes: [RECALL_BRANCH, RECALL_BRANCH].join(" UNION ALL ") + RECALL_ORDER,
  threeScopes: [RECALL_BRANCH, RECALL_BRANCH, RECALL_BRANCH].join(" UNION ALL ") + RECALL_ORDER,
};

/**
 * The facts an agent recalls in a place: pinned first, then the newest, at most
 * RECALL_LIMIT. Reads only the scopes that could apply — each branch an index
 * range of at most RECALL_LIMIT rows (expired ones skipped), so the cost does not grow
 * with the data — and filters again with the pure rule, as of the same `today`.
 */
export async function recall(db: Conn, agentId: string, place: Place, today: string = utcDay()): Promise<CandidateFact[]> {
  const branches = recallBranches(place);
  const args = branches.flatMap((branch) => branchArgs(agentId, place.workspaceId, branch, today));
  const rows = await readAll<CandidateRow>(db, branches.length === 3 ? RECALL_SQL.threeScopes : RECALL_SQL.twoScopes, args);
  return rows.map(storedFact).filter((fact) => recallable(fact, place, today));
}

/**
 * The scopes a recall in this place reads, each one index range of facts_recall_idx:
 * the workspace's facts, this channel's, and in a DM with one person that person's.
 * Every reader of recallable facts (words, meaning, recency) starts from these.
 */
export type RecallBranch = { scope: Scope; ref: string };

/** Whether a row read for recall, by its scope and ref, is of this branch. */
export function inBranch(branch: RecallBranch, scope: string, ref: string): boolean {
  return branch.scope === scope && branch.ref === ref;
}

export function recallBranches(place: Place): RecallBranch[] {
  const branches: RecallBranch[] = [
    { scope: "workspace", ref: "" },
    { scope: "channel", ref: place.channelId },
  ];
  const person = soloPerson(place);
  if (person) branches.push({ scope: "person", ref: person });
  return branches;
}

/** One branch's live, unexpired facts, counted off facts_recall_idx. Parameters: branchArgs. */
const COUNT_BRANCH = `(SELECT count(*) FROM facts WHERE ${BRANCH_WHERE})`;

/** How many facts the agent may recall in this place today: what recall chooses its 40 from. */
export async function recallableCount(db: Conn, agentId: string, place: Place, today: string = utcDay()): Promise<number> {
  const branches = recallBranches(place);
  const row = await readOne<{ n: number }>(
    db,
    `SELECT ${branches.map(() => COUNT_BRANCH).join(" + ")} AS n`,
    branches.flatMap((branch) => branchArgs(agentId, place.workspaceId, branch, today)),
  );
  return Number(row?.n ?? 0);
}

// Orders and their keyset cursors live in fact-order.ts; the Memory page and tests reach them here too.
export { decodeCursor, encodeCursor, FACT_ORDERS, type Cursor, type FactOrder } from "./fact-order";

export const PAGE_SIZE = 25;

/** What a person can narrow the Memory page to; every field optional. */
export type FactFilters = {
  /** Words to find (full-text, FTS5). */
  search?: string;
  scope?: Scope;
  /** Facts of one channel (channel-scoped facts, or facts heard there). */
  channelId?: string;
  pinned?: boolean;
  /** Who first kept the fact: the agent itself, or a person. */
  keptBy?: "agent" | "people";
  sourceKind?: "message" | "session" | "person";
  /** Facts not recalled since this time (ISO), never recalled ones included. */
  notRecalledSince?: string;
  /** Only facts not expired on this UTC day ("YYYY-MM-DD"): the Memory page lists expired ones apart. */
  unexpiredOn?: string;
};

export type ListOptions = FactFilters & {
  /** Recall order ("newest") unless another is asked for. */
  order?: FactOrder;
  /** A cursor of the same order; one of another order is ignored (the list starts from the top). */
  after?: Cursor | null;
  limit?: number;
};


/** The conditions for a person's view of an agent's live facts, filters included. Proposals are the Inbox's (proposals.ts). */
function visibleLiveFacts(viewer: ViewerRef, agentId: string, filters: FactFilters): SqlPart[] {
  const conditions: SqlPart[] = [
    { text: "facts.agent_id = ?", args: [agentId] },
    { text: "facts.forgotten_at IS NULL", args: [] },
    { text: NOT_PROPOSED_SQL, args: [] },
    visibleSql(viewer),
  ];
  if (filters.scope) conditions.push({ text: "facts.scope = ?", args: [filters.scope] });
  if (filters.channelId) {
    conditions.push({
      text: "((facts.scope = 'channel' AND facts.scope_ref = ?) OR facts.source_channel_id = ?)",
      args: [filters.channelId, filters.channelId],
    });
  }
  if (filters.pinned !== undefined) conditions.push({ text: "facts.pinned = ?", args: [filters.pinned ? 1 : 0] });
  if (filters.keptBy) {
    conditions.push({ text: "facts.created_by_kind = ?", args: [filters.keptBy === "agent" ? "agent" : "user"] });
  }
  if (filters.sourceKind) conditions.push({ text: "facts.source_kind = ?", args: [filters.sourceKind] });
  if (filters.unexpiredOn) conditions.push(unexpiredSql(filters.unexpiredOn));
  if (filters.notRecalledSince) {
    // A lookup by fact_usage's key per fact; no row at all is "never recalled".
    conditions.push({
      text: "NOT EXISTS (SELECT 1 FROM fact_usage u WHERE u.fact_seq = facts.seq AND u.last_recalled_at >= ?)",
      args: [filters.notRecalledSince],
    });
  }
  const match = filters.search ? ftsQuery(filters.search) : null;
  if (match) conditions.push({ text: "facts.seq IN (SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?)", args: [match] });
  return conditions;
}

/**
 * One page of the live facts of an agent this person may see, in the order asked
 * (recall order by default), with visibility in the WHERE clause and keyset
 * pagination: exact at any size.
 */
export async function listVisibleFacts(
  db: Conn,
  viewer: ViewerRef,
  agentId: string,
  options: ListOptions = {},
): Promise<{ facts: ListedFact[]; next: string | null }> {
  const limit = options.limit ?? PAGE_SIZE;
  const order = options.order ?? "newest";
  const conditions = visibleLiveFacts(viewer, agentId, options);
  if (options.after?.order === order) conditions.push(keysetSql(options.after));
  const where = allOf(conditions);
  const rows = await readAll<FactColumnsRow & Pick<ListedFact, "createdByName" | "recalledCount" | "lastRecalledAt">>(
    db,
    `SELECT ${FACT_COLUMNS}, ${displayNameSql("users.name", "users.email")} AS createdByName,
        coalesce(usage.recalled_count, 0) AS recalledCount, usage.last_recalled_at AS lastRecalledAt
      FROM facts
      LEFT JOIN users ON facts.created_by_kind = 'user' AND users.id = facts.created_by
      LEFT JOIN fact_usage usage ON usage.fact_seq = facts.seq
      WHERE ${where.text}
      ORDER BY ${orderBySql(order)} LIMIT ?`,
    [...where.args, limit + 1],
  );
  const page = rows.slice(0, limit).map((row) => ({ ...storedFact(row), recalledCount: Number(row.recalledCount) }));
  return { facts: page, next: rows.length > limit ? encodeCursor(page[page.length - 1], order) : null };
}

/** How many live facts of each scope this person may see (with the same filters as the list). */
export async function countVisibleFacts(
  db: Conn,
  viewer: ViewerRef,
  agentId: string,
  filters: FactFilters = {},
): Promise<Record<Scope, number>> {
  const where = allOf(visibleLiveFacts(viewer, agentId, filters));
  const rows = await readAll<{ scope: Scope; count: number }>(
    db,
    `SELECT facts.scope AS scope, count(*) AS count FROM facts WHERE ${where.text} GROUP BY facts.scope`,
    where.args,
  );
  const counts: Record<Scope, number> = { workspace: 0, channel: 0, person: 0 };
  for (const row of rows) counts[row.scope] = Number(row.count);
  return counts;
}

/**
 * How many of the facts a listing shows come before `after` and include it (same
 * view, the cursor's order): the page after it starts at this plus one ("26–50 of 92").
 */
export async function countVisibleThrough(
  db: Conn,
  viewer: ViewerRef,
  agentId: string,
  filters: FactFilters,
  after: Cursor,
): Promise<number> {
  const conditions = visibleLiveFacts(viewer, agentId, filters);
  conditions.push(keysetSql(after, true));
  const where = allOf(conditions);
  const row = await readOne<{ n: number }>(db, `SELECT count(*) AS n FROM facts WHERE ${where.text}`, where.args);
  return Number(row?.n ?? 0);
}

/** One fact this person may see (shownTo: a proposal only if they may decide it), or null — the same answer for missing and not allowed. */
export async function getVisibleFact(
  db: Conn,
  viewer: ViewerRef,
  agentId: string,
  factId: string,
): Promise<StoredFact | null> {
  const visible = shownSql(viewer);
  const row = await readOne<FactColumnsRow>(
    db,
    `SELECT ${FACT_COLUMNS} FROM facts WHERE facts.id = ? AND facts.agent_id = ? AND ${visible.text} LIMIT 1`,
    [factId, agentId, ...visible.args],
  );
  return row ? storedFact(row) : null;
}

/** One change in a fact's history, as the Memory page shows it. */
export type FactEvent = Pick<
  typeof factEvents.$inferSelect,
  "kind" | "actorName" | "actorKind" | "before" | "after" | "placeLabel" | "at"
>;

/**
 * The history of a fact this person may see, oldest first; empty when they may not see it. A fact that replaced
 * others holds their events too (replace.ts), so this is the whole chain.
 */
export async function factHistory(db: Conn, viewer: ViewerRef, agentId: string, factId: string): Promise<FactEvent[]> {
  const visible = shownSql(viewer);
  return readAll<FactEvent>(
    db,
    `SELECT e.kind, e.actor_name AS actorName, e.actor_kind AS actorKind, e.before, e.after, e.place_label AS placeLabel, e.at
      FROM fact_events e JOIN facts ON facts.id = e.fact_id
      WHERE e.fact_id = ? AND facts.agent_id = ? AND ${visible.text}
      ORDER BY e.id`,
    [factId, agentId, ...visible.args],
  );
}

/** Live facts of one agent, proposals included (a flood of them fills the agent, not the workspace). Parameter: the agent. */
export const LIVE_COUNT_SQL = "SELECT count(*) AS n FROM facts WHERE agent_id = ? AND forgotten_at IS NULL";

/** Live facts an agent keeps: what counts against MAX_FACTS. */
export async function liveFactCount(db: Conn, agentId: string): Promise<number> {
  const row = await readOne<{ n: number }>(db, LIVE_COUNT_SQL, [agentId]);
  return Number(row?.n ?? 0);
}

/** The agents of a workspace with how many facts each keeps, for the workspace home. */
export async function agentsWithCounts(db: Conn, workspaceId: string) {
  const rows = await readAll<{ id: string; handle: string; name: string; facts: number }>(
    db,
    `SELECT agents.id, agents.handle, agents.name,
        (SELECT count(*) FROM facts f WHERE f.agent_id = agents.id AND f.forgotten_at IS NULL) AS facts
      FROM agents WHERE agents.workspace_id = ? ORDER BY agents.name`,
    [workspaceId],
  );
  return rows.map((row) => ({ ...row, facts: Number(row.facts) }));
}

/**
 * "Recently forgotten": facts of an agent this person could change, forgotten
 * within the grace period, newest first. Whoever could change a fact may restore it.
 */
export async function listForgottenFacts(
  db: Conn,
  viewer: ViewerRef,
  agentId: string,
  since: string,
  limit = 50,
): Promise<StoredFact[]> {
  const changeable = changeableSql(viewer);
  const rows = await readAll<FactColumnsRow>(
    db,
    `SELECT ${FACT_COLUMNS} FROM facts
      WHERE facts.agent_id = ? AND facts.forgotten_at IS NOT NULL AND facts.forgotten_at >= ? AND ${changeable.text}
      ORDER BY facts.forgotten_at DESC, facts.id DESC LIMIT ?`,
    [agentId, since, ...changeable.args, limit],
  );
  return rows.map(storedFact);
}

/**
 * The Memory page's "Expired": live facts of an agent this person may change whose
 * last day is before `today` — never recalled, still counted toward MAX_FACTS — the
 * most recently ended first, with how many there are in all.
 */
export async function listExpiredFacts(
  db: Conn,
  viewer: ViewerRef,
  agentId: string,
  today: string,
  limit = 50,
): Promise<{ facts: StoredFact[]; total: number }> {
  const changeable = changeableSql(viewer);
  const where = {
    text: `facts.agent_id = ? AND facts.forgotten_at IS NULL AND ${NOT_PROPOSED_SQL} AND facts.valid_until < ? AND ${changeable.text}`,
    args: [agentId, today, ...changeable.args],
  };
  const [rows, [counted]] = await Promise.all([
    readAll<FactColumnsRow>(
      db,
      `SELECT ${FACT_COLUMNS} FROM facts WHERE ${where.text} ORDER BY facts.valid_until DESC, facts.id DESC LIMIT ?`,
      [...where.args, limit],
    ),
    readAll<{ n: number }>(db, `SELECT count(*) AS n FROM facts WHERE ${where.text}`, where.args),
  ]);
  return { facts: rows.map(storedFact), total: Number(counted?.n ?? 0) };
}
