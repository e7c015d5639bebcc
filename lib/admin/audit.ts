/**
 * The owners' audit list: every owner action, who did it and when. Summaries name
 * people, channels, agents and keys — never the text of a fact.
 */
import { and, desc, eq, lt } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { auditEvents } from "@/db/schema";

/** Whom the audit list names: a signed-in person (lib/auth/session.ts) or the command line. */
export type AuditActor = { id: string; name: string };

/** The command line acts as this actor. */
export const OPERATOR: AuditActor = { id: "operator", name: "Operator (command line)" };

/** Records an owner action; call it inside the action's own transaction. */
export async function recordAudit(
  tx: Conn,
  workspaceId: string,
  actor: AuditActor,
  action: string,
  summary: string,
): Promise<void> {
  await tx.insert(auditEvents).values({ workspaceId, actorId: actor.id, actorName: actor.name, action, summary });
}

/**
 * The newest audit events of a workspace, or those older than event `before` (the
 * next page). Callers must have checked the reader is an owner.
 */
export async function listAudit(db: Conn, workspaceId: string, limit = 100, before?: number) {
  return db
    .select({
      id: auditEvents.id,
      actorName: auditEvents.actorName,
      action: auditEvents.action,
      summary: auditEvents.summary,
      at: auditEvents.at,
    })
    .from(auditEvents)
    .where(and(eq(auditEvents.workspaceId, workspaceId), before ? lt(auditEvents.id, before) : undefined))
    .orderBy(desc(auditEvents.id))
    .limit(limit);
}
