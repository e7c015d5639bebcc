/**
 * Owners' webhook endpoints for a workspace: add (the secret is answered once),
 * list, turn off and on, delete, the delivery log, and a test event. Callers have
 * checked the actor is an owner of `workspaceId` (ownerAction); every statement
 * still names the workspace, so an id from another workspace finds nothing.
 */
import { randomBytes } from "node:crypto";
import { readAll, writeTransaction, type Conn, type Writes } from "@/db/client";
import type { AuditActor } from "@/lib/admin/audit";
import { newId, nowIso } from "@/lib/ids";
import { checkWebhookUrl } from "./address";
import { eventsColumn, eventsOf, type WebhookEvent } from "./events";

/** Endpoints per workspace: enough for any real setup, and a bound on the work one fact change queues. */
export const MAX_ENDPOINTS = 10;

export type EndpointRow = {
  id: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  disabledReason: string | null;
  failuresInARow: number;
  createdAt: string;
  pending: number;
};

export type DeliveryRow = {
  id: number;
  event: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  createdAt: string;
};

function newSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}

async function audit(writes: Writes, workspaceId: string, actor: AuditActor, action: string, summary: string) {
  await writes.run("INSERT INTO audit_events (workspace_id, actor_id, actor_name, action, summary, at) VALUES (?, ?, ?, ?, ?, ?)", [
    workspaceId,
    actor.id,
    actor.name,
    action,
    summary,
    nowIso(),
  ]);
}

export type CreateResult =
  | { status: "created"; id: string; secret: string }
  | { status: "invalid_url"; reason: string }
  | { status: "no_events" }
  | { status: "too_many" };

export async function createEndpoint(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  input: { url: string; events: WebhookEvent[] },
): Promise<CreateResult> {
  if (!input.events.length) return { status: "no_events" };
  const checked = await checkWebhookUrl(input.url);
  if (!checked.ok) return { status: "invalid_url", reason: checked.reason };
  const id = newId("whe");
  const secret = newSecret();
  const url = checked.url.toString();
  return writeTransaction(db, async (writes) => {
    const [count] = await writes.all<{ n: number }>("SELECT count(*) AS n FROM webhook_endpoints WHERE workspace_id = ?", [workspaceId]);
    if (Number(count?.n ?? 0) >= MAX_ENDPOINTS) return { status: "too_many" as const };
    await writes.run(
      "INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [id, workspaceId, url, eventsColumn(input.events), secret, actor.id, nowIso()],
    );
    await audit(writes, workspaceId, actor, "webhook.add", `the webhook endpoint ${checked.url.host}`);
    return { status: "created" as const, id, secret };
  });
}

export async function listEndpoints(db: Conn, workspaceId: string): Promise<EndpointRow[]> {
  const rows = await readAll<Omit<EndpointRow, "events" | "enabled"> & { events: string; enabled: number }>(
    db,
    `SELECT e.id AS id, e.url AS url, e.events AS events, e.enabled AS enabled, e.disabled_reason AS disabledReason,
        e.failures_in_a_row AS failuresInARow, e.created_at AS createdAt,
        (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'pending') AS pending
      FROM webhook_endpoints e WHERE e.workspace_id = ? ORDER BY e.created_at, e.id`,
    [workspaceId],
  );
  return rows.map((row) => ({ ...row, events: eventsOf(row.events), enabled: Boolean(row.enabled), pending: Number(row.pending) }));
}

export type ChangeResult = { status: "changed" | "not_found"; host?: string };

export async function setEndpointEnabled(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  endpointId: string,
  enabled: boolean,
): Promise<ChangeResult> {
  return writeTransaction(db, async (writes) => {
    // Turned on again by a person: the run of failures starts over.
    const [row] = await writes.all<{ url: string }>(
      `UPDATE webhook_endpoints SET enabled = ?, disabled_reason = NULL, failures_in_a_row = 0
        WHERE id = ? AND workspace_id = ? RETURNING url`,
      [enabled ? 1 : 0, endpointId, workspaceId],
    );
    if (!row) return { status: "not_found" as const };
    const host = new URL(row.url).host;
    await audit(writes, workspaceId, actor, enabled ? "webhook.enable" : "webhook.disable", `the webhook endpoint ${host}`);
    return { status: "changed" as const, host };
  });
}

export async function deleteEndpoint(db: Conn, actor: AuditActor, workspaceId: string, endpointId: string): Promise<ChangeResult> {
  return writeTransaction(db, async (writes) => {
    // Its deliveries, waiting ones and their payloads included, go with it (the foreign key's cascade).
    const [row] = await writes.all<{ url: string }>("DELETE FROM webhook_endpoints WHERE id = ? AND workspace_id = ? RETURNING url", [
      endpointId,
      workspaceId,
    ]);
    if (!row) return { status: "not_found" as const };
    const host = new URL(row.url).host;
    await audit(writes, workspaceId, actor, "webhook.delete", `the webhook endpoint ${host}`);
    return { status: "changed" as const, host };
  });
}

/** The newest deliveries of one endpoint of the workspace (none if it is another workspace's). */
export async function listDeliveries(db: Conn, workspaceId: string, endpointId: string, limit = 50): Promise<DeliveryRow[]> {
  return readAll<DeliveryRow>(
    db,
    `SELECT d.id AS id, d.event AS event, d.status AS status, d.attempts AS attempts, d.last_code AS lastCode,
        d.last_error AS lastError, d.last_attempt_at AS lastAttemptAt, d.created_at AS createdAt
      FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE d.endpoint_id = ? AND e.workspace_id = ? ORDER BY d.id DESC LIMIT ?`,
    [endpointId, workspaceId, limit],
  );
}

/** Queues a `webhook.test` delivery to one endpoint, whatever events it wants and even while it is off. */
export async function queueTestEvent(db: Conn, workspaceId: string, endpointId: string): Promise<ChangeResult> {
  const at = nowIso();
  const messageId = `msg_test_${newId("t").slice(2)}`;
  const payload = JSON.stringify({ type: "webhook.test", timestamp: at, data: { workspace_id: workspaceId, endpoint_id: endpointId } });
  return writeTransaction(db, async (writes) => {
    const [row] = await writes.all<{ id: number }>(
      `INSERT INTO webhook_deliveries (endpoint_id, message_id, fact_id, event, payload, next_at, created_at)
        SELECT id, ?, NULL, 'webhook.test', ?, ?, ? FROM webhook_endpoints WHERE id = ? AND workspace_id = ? RETURNING id`,
      [messageId, payload, at, at, endpointId, workspaceId],
    );
    return { status: row ? ("changed" as const) : ("not_found" as const) };
  });
}
