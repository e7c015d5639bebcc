/**
 * "Download as JSON": every live fact of an agent the person may see, with its
 * history, in the wire shape. Visibility is in both queries' WHERE clause
 * (visibleSql), exactly as the Memory page lists; forgotten facts stay out.
 * No pagination: an agent keeps at most MAX_FACTS live facts.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { factEvents, facts } from "@/db/schema";
import {
  FACTS_FILE_FORMAT,
  FACTS_FILE_VERSION,
  type ExportedEvent,
  type FactsFile,
} from "@/lib/validation/facts-file";
import { toMemory } from "./wire";
import { factColumns } from "./store";
import { visibleSql, type SqlViewer } from "./visibility-sql";

export async function exportFacts(
  db: Conn,
  viewer: SqlViewer,
  workspace: { id: string; name: string },
  agent: { id: string; handle: string; name: string },
  now: Date = new Date(),
): Promise<FactsFile> {
  const visibleLive = and(eq(facts.agentId, agent.id), isNull(facts.forgottenAt), visibleSql(viewer));
  const rows = await db
    .select(factColumns)
    .from(facts)
    .where(visibleLive)
    .orderBy(desc(facts.pinned), desc(facts.updatedAt), desc(facts.id));
  const events = await db
    .select({
      factId: factEvents.factId,
      kind: factEvents.kind,
      actorKind: factEvents.actorKind,
      actorName: factEvents.actorName,
      before: factEvents.before,
      after: factEvents.after,
      at: factEvents.at,
    })
    .from(factEvents)
    .innerJoin(facts, eq(facts.id, factEvents.factId))
    .where(visibleLive)
    .orderBy(factEvents.id);

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
    facts: rows.map((row) => ({ ...toMemory(row), history: history.get(row.id) ?? [] })),
  };
}

/** "scout-memory-2026-05-01.json": the agent and the day, safe in any file system. */
export function exportFileName(handle: string, now: Date = new Date()): string {
  const safe = handle.toLowerCase().replace(/[^a-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "") || "agent";
  return `${safe}-memory-${now.toISOString().slice(0, 10)}.json`;
}
