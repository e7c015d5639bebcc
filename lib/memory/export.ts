/**
 * "Download as JSON": every live fact of an agent the person may see, with how
 * often agents recalled it and its history, in the wire shape. Visibility is in both queries' WHERE clause
 * (visibleSql), exactly as the Memory page lists; forgotten facts stay out.
 * No pagination: an agent keeps at most MAX_FACTS live facts.
 */
import { readAll, type Conn } from "@/db/client";
import type { factEvents } from "@/db/schema";
import {
  FACTS_FILE_FORMAT,
  FACTS_FILE_VERSION,
  type ExportedEvent,
  type FactsFile,
} from "@/lib/validation/facts-file";
import { toMemory } from "./wire";
import { FACT_COLUMNS, storedFact, type FactColumnsRow } from "./fact-columns";
import { shownSql, type ViewerRef } from "./rules-sql";

export async function exportFacts(
  db: Conn,
  viewer: ViewerRef,
  workspace: { id: string; name: string },
  agent: { id: string; handle: string; name: string },
  now: Date = new Date(),
): Promise<FactsFile> {
  // Proposals only for those who may decide them, with "status": "proposed", as the Inbox shows them.
  const visible = shownSql(viewer);
  const visibleLive = {
    text: `facts.agent_id = ? AND facts.forgotten_at IS NULL AND ${visible.text}`,
    args: [agent.id, ...visible.args],
  };
  const rows = await readAll<FactColumnsRow & { recalledCount: number; lastRecalledAt: string | null }>(
    db,
    `SELECT ${FACT_COLUMNS}, coalesce(u.recalled_count, 0) AS recalledCount, u.last_recalled_at AS lastRecalledAt
      FROM facts LEFT JOIN fact_usage u ON u.fact_seq = facts.seq
      WHERE ${visibleLive.text}
      ORDER BY facts.pinned DESC, facts.updated_at DESC, facts.id DESC`,
    visibleLive.args,
  );
  const events = await readAll<
    Pick<typeof factEvents.$inferSelect, "factId" | "kind" | "actorKind" | "actorName" | "before" | "after" | "at">
  >(
    db,
    `SELECT e.fact_id AS factId, e.kind, e.actor_kind AS actorKind, e.actor_name AS actorName, e.before, e.after, e.at
      FROM fact_events e JOIN facts ON facts.id = e.fact_id
      WHERE ${visibleLive.text}
      ORDER BY e.id`,
    visibleLive.args,
  );

  const history = new Map<string, ExportedEvent[]>();
  for (const event of events) {
    const list = history.get(event.factId) ?? [];
    list.push({
      kind: event.kind,
      actor_kind: event.actorKind,
      actor_name: event.actorName,
      before: event.before,
      after: event.after,
      at: event.at,
    });
    history.set(event.factId, list);
  }

  return {
    format: FACTS_FILE_FORMAT,
    version: FACTS_FILE_VERSION,
    exported_at: now.toISOString(),
    workspace,
    agent: { handle: agent.handle, name: agent.name },
    facts: rows.map(storedFact).map((row) => ({
      ...toMemory(row),
      recalled_count: Number(row.recalledCount),
      last_recalled_at: row.lastRecalledAt,
      history: history.get(row.id) ?? [],
    })),
  };
}

/** "scout-memory-2026-05-01.json": the agent and the day, safe in any file system. */
export function exportFileName(handle: string, now: Date = new Date()): string {
  const safe = handle.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "agent";
  return `${safe}-memory-${now.toISOString().slice(0, 10)}.json`;
}
