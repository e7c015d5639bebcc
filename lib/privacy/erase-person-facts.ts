/**
 * "Erase what agents keep just for me" and its owner and operator forms (issue
 * #16): a person's facts (scope person, ref = them) go at once with their
 * history, not through the 7-day bin, in one transaction. The cascades and
 * triggers take everything made from them in the same statement: history, vector,
 * usage, look-alikes, full-text entry (secure-delete, drizzle/0016), word-index
 * postings (drizzle/0015), and the agent's memory version moves, so no kept recall
 * answer still holds them. Freed pages are zeroed (PRAGMA secure_delete, db/).
 * Each workspace's owners get an audit entry with the counts, never the text.
 *
 *   erasePersonFacts(db, userId, { workspaceId?, dryRun, by, endSessions? })
 *     → { status: "dry_run" | "erased", total, agents: AgentErasure[] }
 *   personFactCount(db, workspaceId, userId) → number   (owners' remove flow: count only)
 *   personFactCounts(db, workspaceId) → Map<userId, number>   (the People page: every member's count)
 *   erasePersonFactsIn(writes, userId, workspaceId | null, by) → AgentErasure[]   (inside a caller's transaction)
 */
import { foldWal, readAll, readOne, writeTransaction, type Conn, type SqlArg, type Writes } from "@/db/client";
import type { AuditActor } from "@/lib/admin/audit";
import { displayNameSql } from "@/lib/person-name";
import type { AgentErasure } from "./types";

export type EraseOptions = {
  /** One workspace; left out, every workspace. */
  workspaceId?: string;
  /** Count only, change nothing. */
  dryRun: boolean;
  /** Who asks, as the owners' audit list names them. */
  by: AuditActor;
  /** End every session of the person too (the operator's erasure). */
  endSessions?: boolean;
};

export type EraseResult = { status: "dry_run" | "erased"; total: number; agents: AgentErasure[] };

type CountRow = {
  workspaceId: string;
  workspaceName: string;
  agentId: string;
  agentHandle: string;
  agentName: string;
  n: number;
};

function countSql(userId: string, workspaceId: string | null): { text: string; args: SqlArg[] } {
  return {
    text: `SELECT f.workspace_id AS workspaceId, w.name AS workspaceName, f.agent_id AS agentId, a.handle AS agentHandle,
        a.name AS agentName, count(*) AS n
      FROM facts f JOIN agents a ON a.id = f.agent_id JOIN workspaces w ON w.id = f.workspace_id
      WHERE f.scope = 'person' AND f.scope_ref = ?${workspaceId === null ? "" : " AND f.workspace_id = ?"}
      GROUP BY f.workspace_id, f.agent_id ORDER BY w.name, a.handle`,
    args: workspaceId === null ? [userId] : [userId, workspaceId],
  };
}

function erasures(rows: CountRow[]): AgentErasure[] {
  return rows.map((r) => ({
    workspace: { id: r.workspaceId, name: r.workspaceName },
    agent: { id: r.agentId, handle: r.agentHandle, name: r.agentName },
    facts: Number(r.n),
  }));
}

/** Counts in words for the audit list: "3 facts (@scout 2, @herald 1)". Never text. */
export function countsInWords(agents: AgentErasure[]): string {
  const total = agents.reduce((sum, a) => sum + a.facts, 0);
  const each = agents.map((a) => `@${a.agent.handle} ${a.facts}`).join(", ");
  return `${total} ${total === 1 ? "fact" : "facts"}${each ? ` (${each})` : ""}`;
}

/**
 * Erases the person's facts in the caller's write transaction and records one audit entry per
 * workspace touched. Returns what went, per agent.
 */
export async function erasePersonFactsIn(
  writes: Writes,
  userId: string,
  workspaceId: string | null,
  by: AuditActor,
  /** How the audit entry names the person; read from their account when left out. */
  personName?: string,
): Promise<AgentErasure[]> {
  const count = countSql(userId, workspaceId);
  const agents = erasures(await writes.all<CountRow>(count.text, count.args));
  if (!agents.length) return agents;
  await writes.run(
    `DELETE FROM facts WHERE scope = 'person' AND scope_ref = ?${workspaceId === null ? "" : " AND workspace_id = ?"}`,
    count.args,
  );
  let name = personName;
  if (name === undefined) {
    const [row] = await writes.all<{ name: string }>(
      `SELECT ${displayNameSql("name", "email")} AS name FROM users WHERE id = ?`,
      [userId],
    );
    name = row?.name ?? "a person";
  }
  for (const ws of new Set(agents.map((a) => a.workspace.id))) {
    const here = agents.filter((a) => a.workspace.id === ws);
    await writes.run("INSERT INTO audit_events (workspace_id, actor_id, actor_name, action, summary, at) VALUES (?, ?, ?, ?, ?, ?)", [
      ws,
      by.id,
      by.name,
      "person.erase",
      `${name}: erased ${countsInWords(here)} kept just for them`,
      new Date().toISOString(),
    ]);
  }
  return agents;
}

export async function erasePersonFacts(db: Conn, userId: string, options: EraseOptions): Promise<EraseResult> {
  const workspaceId = options.workspaceId ?? null;
  if (options.dryRun) {
    const count = countSql(userId, workspaceId);
    const agents = erasures(await readAll<CountRow>(db, count.text, count.args));
    return { status: "dry_run", total: agents.reduce((sum, a) => sum + a.facts, 0), agents };
  }
  const agents = await writeTransaction(db, async (writes) => {
    const erased = await erasePersonFactsIn(writes, userId, workspaceId, options.by);
    if (options.endSessions) await writes.run("UPDATE users SET session_version = session_version + 1 WHERE id = ?", [userId]);
    return erased;
  });
  if (agents.length) await foldWal(db);
  return { status: "erased", total: agents.reduce((sum, a) => sum + a.facts, 0), agents };
}

/** How many facts agents of one workspace keep just for this person: what an owner removing them is shown. */
export async function personFactCount(db: Conn, workspaceId: string, userId: string): Promise<number> {
  const row = await readOne<{ n: number }>(
    db,
    "SELECT count(*) AS n FROM facts WHERE scope = 'person' AND scope_ref = ? AND workspace_id = ?",
    [userId, workspaceId],
  );
  return Number(row?.n ?? 0);
}

/** The same count for every member of a workspace at once (the People page), by person id; only members, never text. */
export async function personFactCounts(db: Conn, workspaceId: string): Promise<Map<string, number>> {
  const rows = await readAll<{ userId: string; n: number }>(
    db,
    `SELECT f.scope_ref AS userId, count(*) AS n FROM facts f
      JOIN memberships m ON m.workspace_id = f.workspace_id AND m.user_id = f.scope_ref
      WHERE f.workspace_id = ? AND f.scope = 'person' GROUP BY f.scope_ref`,
    [workspaceId],
  );
  return new Map(rows.map((row) => [row.userId, Number(row.n)]));
}
