/**
 * Reading facts. Every query here applies the rules in SQL (visibility-sql.ts for
 * people, the place for agents) and then, where rows leave for an agent, once more
 * in code with the pure rule. Writes live in writes.ts.
 */
import { and, desc, eq, gte, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { readAll, type Conn } from "@/db/client";
import { agents, factEvents, facts, users } from "@/db/schema";
import { RECALL_LIMIT, recallable, soloPerson, type FactRow, type Place, type Scope } from "./rules";
import { ftsQuery } from "./search";
import { changeableSql, visibleSql, type SqlViewer } from "./visibility-sql";

/** The columns of a fact the app reads, under the names FactRow uses. */
export const factColumns = {
  id: facts.id,
  agentId: facts.agentId,
  workspaceId: facts.workspaceId,
  scope: facts.scope,
  scopeRef: facts.scopeRef,
  scopeLabel: facts.scopeLabel,
  body: facts.body,
  sourceKind: facts.sourceKind,
  sourceRef: facts.sourceRef,
  sourceLabel: facts.sourceLabel,
  sourceChannelId: facts.sourceChannelId,
  createdBy: facts.createdBy,
  createdByKind: facts.createdByKind,
  pinned: facts.pinned,
  correctedAt: facts.correctedAt,
  version: facts.version,
  createdAt: facts.createdAt,
  updatedAt: facts.updatedAt,
  forgottenAt: facts.forgottenAt,
};

export type StoredFact = FactRow & { version: number; forgottenAt: string | null };
/** A fact as the Memory page lists it: with the name of the person who told it, if a person did. */
export type ListedFact = StoredFact & { createdByName: string | null };

/**
 * A fact's columns for plain SQL (recall here, remember in writes.ts), under
 * StoredFact's names; `pinned` comes back as 0 or 1 — storedFact makes it a boolean.
 */
export const FACT_COLUMNS = `id, agent_id AS agentId, workspace_id AS workspaceId, scope, scope_ref AS scopeRef,
  scope_label AS scopeLabel, body, source_kind AS sourceKind, source_ref AS sourceRef, source_label AS sourceLabel,
  source_channel_id AS sourceChannelId, created_by AS createdBy, created_by_kind AS createdByKind, pinned,
  corrected_at AS correctedAt, version, created_at AS createdAt, updated_at AS updatedAt, forgotten_at AS forgottenAt`;

/** A row read with FACT_COLUMNS. */
export type FactColumnsRow = Omit<StoredFact, "pinned"> & { pinned: number | boolean };

export function storedFact(row: FactColumnsRow): StoredFact {
  return { ...row, pinned: !!row.pinned };
}

/** One scope's newest facts for recall, walked straight off facts_recall_idx. Parameters: agent, scope, ref, workspace. */
const RECALL_BRANCH = `SELECT * FROM (SELECT ${FACT_COLUMNS} FROM facts
    WHERE agent_id = ? AND scope = ? AND scope_ref = ?
      AND forgotten_at IS NULL AND workspace_id = ?
    ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ${RECALL_LIMIT})`;
// The branches' columns go by FACT_COLUMNS' names.
const RECALL_ORDER = ` ORDER BY pinned DESC, updatedAt DESC, id DESC LIMIT ${RECALL_LIMIT}`;
/** Workspace and channel facts; with a third branch, a solo DM's person facts too. */
export const RECALL_SQL = {
  twoScopes: [RECALL_BRANCH, RECALL_BRANCH].join(" UNION ALL ") + RECALL_ORDER,
  threeScopes: [RECALL_BRANCH, RECALL_BRANCH, RECALL_BRANCH].join(" UNION ALL ") + RECALL_ORDER,
};

/**
 * The facts an agent recalls in a place: pinned first, then the newest, at most
 * RECALL_LIMIT. Reads only the scopes that could apply — each branch an index
 * range of at most RECALL_LIMIT rows, so the cost does not grow with the data —
 * and filters again with the pure rule.
 */
export async function recall(db: Conn, agentId: string, place: Place): Promise<StoredFact[]> {
  const { workspaceId, channelId } = place;
  const args = [agentId, "workspace", "", workspaceId, agentId, "channel", channelId, workspaceId];
  const person = soloPerson(place);
  const rows = person
    ? await readAll<FactColumnsRow>(db, RECALL_SQL.threeScopes, [...args, agentId, "person", person, workspaceId])
    : await readAll<FactColumnsRow>(db, RECALL_SQL.twoScopes, args);
  return rows.map(storedFact).filter((fact) => recallable(fact, place));
}

/** Where a listing resumes: the last fact of the previous page, in recall order. */
export type Cursor = { pinned: boolean; updatedAt: string; id: string };

export function encodeCursor(fact: Pick<StoredFact, "pinned" | "updatedAt" | "id">): string {
  return Buffer.from(JSON.stringify([fact.pinned ? 1 : 0, fact.updatedAt, fact.id])).toString("base64url");
}

/** A cursor from a URL, or null when it is not one of ours (a bad cursor starts from the top). */
export function decodeCursor(value: string | null | undefined): Cursor | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (
      Array.isArray(parsed) &&
      parsed.length === 3 &&
      (parsed[0] === 0 || parsed[0] === 1) &&
      typeof parsed[1] === "string" &&
      typeof parsed[2] === "string"
    ) {
      return { pinned: parsed[0] === 1, updatedAt: parsed[1], id: parsed[2] };
    }
  } catch {
    // fall through: not a cursor we made
  }
  return null;
}

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
};

export type ListOptions = FactFilters & {
  after?: Cursor | null;
  limit?: number;
};

/** The WHERE conditions for a person's view of an agent's live facts, filters included. */
function visibleLiveFacts(viewer: SqlViewer, agentId: string, filters: FactFilters): SQL[] {
  const conditions: SQL[] = [eq(facts.agentId, agentId), isNull(facts.forgottenAt), visibleSql(viewer)];
  if (filters.scope) conditions.push(eq(facts.scope, filters.scope));
  if (filters.channelId) {
    conditions.push(
      sql`((facts.scope = 'channel' AND facts.scope_ref = ${filters.channelId}) OR facts.source_channel_id = ${filters.channelId})`,
    );
  }
  if (filters.pinned !== undefined) conditions.push(eq(facts.pinned, filters.pinned));
  if (filters.keptBy) conditions.push(eq(facts.createdByKind, filters.keptBy === "agent" ? "agent" : "user"));
  if (filters.sourceKind) conditions.push(eq(facts.sourceKind, filters.sourceKind));
  const match = filters.search ? ftsQuery(filters.search) : null;
  if (match) conditions.push(sql`facts.seq IN (SELECT rowid FROM facts_fts WHERE facts_fts MATCH ${match})`);
  return conditions;
}

/**
 * One page of the live facts of an agent this person may see, in recall order,
 * with visibility in the WHERE clause and keyset pagination: exact at any size.
 */
export async function listVisibleFacts(
  db: Conn,
  viewer: SqlViewer,
  agentId: string,
  options: ListOptions = {},
): Promise<{ facts: ListedFact[]; next: string | null }> {
  const limit = options.limit ?? PAGE_SIZE;
  const conditions = visibleLiveFacts(viewer, agentId, options);
  if (options.after) {
    const { pinned, updatedAt, id } = options.after;
    conditions.push(sql`(facts.pinned, facts.updated_at, facts.id) < (${pinned ? 1 : 0}, ${updatedAt}, ${id})`);
  }
  const rows = await db
    .select({ ...factColumns, createdByName: users.name })
    .from(facts)
    .leftJoin(users, and(eq(facts.createdByKind, "user"), eq(users.id, facts.createdBy)))
    .where(and(...conditions))
    .orderBy(desc(facts.pinned), desc(facts.updatedAt), desc(facts.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return { facts: page, next: rows.length > limit ? encodeCursor(page[page.length - 1]) : null };
}

/** How many live facts of each scope this person may see (with the same filters as the list). */
export async function countVisibleFacts(
  db: Conn,
  viewer: SqlViewer,
  agentId: string,
  filters: FactFilters = {},
): Promise<Record<Scope, number>> {
  const rows = await db
    .select({ scope: facts.scope, count: sql<number>`count(*)` })
    .from(facts)
    .where(and(...visibleLiveFacts(viewer, agentId, filters)))
    .groupBy(facts.scope);
  const counts: Record<Scope, number> = { workspace: 0, channel: 0, person: 0 };
  for (const row of rows) counts[row.scope] = Number(row.count);
  return counts;
}

/** One fact this person may see, or null — the same answer for missing and not allowed. */
export async function getVisibleFact(
  db: Conn,
  viewer: SqlViewer,
  agentId: string,
  factId: string,
): Promise<StoredFact | null> {
  const [row] = await db
    .select(factColumns)
    .from(facts)
    .where(and(eq(facts.id, factId), eq(facts.agentId, agentId), visibleSql(viewer)))
    .limit(1);
  return row ?? null;
}

/** The history of a fact this person may see, oldest first; empty when they may not see it. */
export async function factHistory(db: Conn, viewer: SqlViewer, agentId: string, factId: string) {
  return db
    .select({
      kind: factEvents.kind,
      actorName: factEvents.actorName,
      actorKind: factEvents.actorKind,
      before: factEvents.before,
      after: factEvents.after,
      at: factEvents.at,
    })
    .from(factEvents)
    .innerJoin(facts, eq(facts.id, factEvents.factId))
    .where(and(eq(factEvents.factId, factId), eq(facts.agentId, agentId), visibleSql(viewer)))
    .orderBy(factEvents.id);
}

/** Live facts an agent keeps: what counts against MAX_FACTS. */
export async function liveFactCount(db: Conn, agentId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(facts)
    .where(and(eq(facts.agentId, agentId), isNull(facts.forgottenAt)));
  return Number(row?.count ?? 0);
}

/** The agents of a workspace with how many facts each keeps, for the workspace home. */
export async function agentsWithCounts(db: Conn, workspaceId: string) {
  const rows = await db
    .select({
      id: agents.id,
      handle: agents.handle,
      name: agents.name,
      // Spelled out: inside a select list Drizzle would print the column without its table.
      facts: sql<number>`(SELECT count(*) FROM facts f WHERE f.agent_id = agents.id AND f.forgotten_at IS NULL)`,
    })
    .from(agents)
    .where(eq(agents.workspaceId, workspaceId))
    .orderBy(agents.name);
  return rows.map((row) => ({ ...row, facts: Number(row.facts) }));
}

/**
 * "Recently forgotten": facts of an agent this person could change, forgotten
 * within the grace period, newest first. Whoever could change a fact may restore it.
 */
export async function listForgottenFacts(db: Conn, viewer: SqlViewer, agentId: string, since: string, limit = 50) {
  return db
    .select(factColumns)
    .from(facts)
    .where(
      and(
        eq(facts.agentId, agentId),
        isNotNull(facts.forgottenAt),
        gte(facts.forgottenAt, since),
        changeableSql(viewer),
      ),
    )
    .orderBy(desc(facts.forgottenAt), desc(facts.id))
    .limit(limit);
}
