/**
 * Who last changed each listed fact, for the Memory page's live marks ("changed
 * by Max"): the actor of the fact's last history event, read through the same
 * rule as History (shownSql in the SQL), so a name appears only where the person
 * could already read it. The person's own changes are not marked: null for those.
 */
import { readAll, type Conn } from "@/db/client";
import { shownSql, type ViewerRef } from "@/lib/memory/rules-sql";

export async function lastActorsOf(db: Conn, viewer: ViewerRef, agentId: string, factIds: readonly string[]): Promise<Map<string, string | null>> {
  const byFact = new Map<string, string | null>();
  if (!factIds.length) return byFact;
  const visible = shownSql(viewer);
  const rows = await readAll<{ factId: string; actorId: string; actorKind: string; actorName: string }>(
    db,
    `SELECT e.fact_id AS factId, e.actor_id AS actorId, e.actor_kind AS actorKind, e.actor_name AS actorName
      FROM fact_events e JOIN facts ON facts.id = e.fact_id
      WHERE facts.agent_id = ? AND e.fact_id IN (${factIds.map(() => "?").join(", ")}) AND ${visible.text}
        AND e.id = (SELECT max(l.id) FROM fact_events l WHERE l.fact_id = e.fact_id)`,
    [agentId, ...factIds, ...visible.args],
  );
  for (const row of rows) byFact.set(row.factId, row.actorKind === "user" && row.actorId === viewer.id ? null : row.actorName);
  return byFact;
}
