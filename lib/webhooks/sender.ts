/**
 * Sends queued webhook deliveries (queued by drizzle/0017's triggers). Every server
 * process runs one loop (startWebhookSender, from instrumentation.ts); they share
 * the queue through the database: a sender claims due rows with one UPDATE …
 * RETURNING in a write transaction, so two never hold the same row, and a claim
 * lapses after `holdMs`, so rows held by a sender that died are sent by another.
 *
 * Order per fact: a row waits while an earlier row of the same fact for the same
 * endpoint is still pending. Failures are retried with exponential backoff for 24
 * hours; a run of failures disables the endpoint with the reason.
 *
 * What a crash (SIGKILL, power loss) can and cannot do. HTTP offers no exactly-once:
 * a receiver may act on a POST whose answer never reaches us. So: no event is lost
 * (the queue is in the database, and a dead sender's claims lapse); the only
 * repeats are the rows that were in flight when the sender died — at most `batch`,
 * since that is all it ever has out at once — each sent again with the same
 * `webhook-id` and the same body bytes, newly signed. A receiver that drops ids it
 * has seen (as Standard Webhooks asks) acts on each event exactly once. To keep
 * that window small, an attempt is recorded as soon as the answer's status arrives.
 */
import http from "node:http";
import https from "node:https";
import { Webhook } from "standardwebhooks";
import { writeTransaction, type Conn } from "@/db/client";
import { nudgeLoop, startLoop } from "@/lib/ops/background-loop";
import { errorSummary } from "@/lib/ops/log";
import { resolveTarget } from "./address";

export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** Failed attempts in a row (across the endpoint's deliveries) that disable it. */
export const DISABLE_AFTER_FAILURES = 20;

export type SenderOptions = {
  /** How long one delivery may take, connecting included. */
  timeoutMs: number;
  /** The first retry's wait; each next one is four times longer, up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** How long a claim holds a row; after it, another sender may take the row. */
  holdMs: number;
  /** Rows claimed at once, all sent in parallel: the most a crash can make us send twice. */
  batch: number;
};

export const DEFAULT_OPTIONS: SenderOptions = {
  timeoutMs: 10_000,
  backoffMs: 5_000,
  maxBackoffMs: 4 * 60 * 60 * 1000,
  holdMs: 60_000,
  batch: 8,
};

type Claimed = {
  id: number;
  endpointId: string;
  messageId: string;
  payload: string | null;
  attempts: number;
  createdAt: string;
  claimedUntil: string;
  url: string;
  secret: string;
};

// A row is due when its time has come, no sender holds it, its endpoint is on, and
// no earlier row of the same fact for the same endpoint is still pending.
const CLAIM_SQL = `UPDATE webhook_deliveries SET claimed_until = ?, attempts = attempts + 1, last_attempt_at = ?
  WHERE id IN (
    SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND (e.enabled = 1 OR d.event = 'webhook.test')
    WHERE d.status = 'pending' AND d.next_at <= ? AND (d.claimed_until IS NULL OR d.claimed_until < ?)
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p
        WHERE p.status = 'pending' AND p.fact_id = d.fact_id AND p.endpoint_id = d.endpoint_id AND p.id < d.id)
    ORDER BY d.id LIMIT ?)
  RETURNING id`;

const CLAIMED_SQL = `SELECT d.id AS id, d.endpoint_id AS endpointId, d.message_id AS messageId, d.payload AS payload,
    d.attempts AS attempts, d.created_at AS createdAt, d.claimed_until AS claimedUntil, e.url AS url, e.secret AS secret
  FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
  WHERE d.id IN (SELECT value FROM json_each(?)) ORDER BY d.id`;

/** Claims up to `batch` due rows for this sender. */
export async function claimDue(db: Conn, options: SenderOptions, now = new Date()): Promise<Claimed[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + options.holdMs).toISOString();
  return writeTransaction(db, async (writes) => {
    const ids = await writes.all<{ id: number }>(CLAIM_SQL, [until, at, at, at, options.batch]);
    if (!ids.length) return [];
    return writes.all<Claimed>(CLAIMED_SQL, [JSON.stringify(ids.map((row) => row.id))]);
  });
}

export type Outcome = { ok: true; code: number } | { ok: false; code: number | null; error: string };

/**
 * One POST to `url`, to the address resolveTarget checked (never a second lookup),
 * following no redirect, within `timeoutMs`. The outcome is known from the status
 * line; the answer's body is not waited for (a slow body would widen the window in
 * which a crash makes a repeat) and is dropped with the connection.
 */
export async function post(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Outcome> {
  const target = new URL(url);
  const resolved = await resolveTarget(target.hostname);
  if (!resolved.ok) return { ok: false, code: null, error: resolved.reason };
  const client = target.protocol === "https:" ? https : http;
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body), "user-agent": "Mnemo-Webhooks/1" },
        // Connect to the checked address; the URL's host still names the server (Host header, TLS).
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) callback(null, [{ address: resolved.address, family: resolved.family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, resolved.address, resolved.family);
        },
      },
      (response) => {
        const code = response.statusCode ?? 0;
        if (code >= 200 && code < 300) finish({ ok: true, code });
        else if (code >= 300 && code < 400) finish({ ok: false, code, error: `answered ${code} (a redirect, which is not followed)` });
        else finish({ ok: false, code, error: `answered ${code}` });
        response.destroy();
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, code: null, error: `no answer within ${timeoutMs / 1000} s` });
      request.destroy();
    }, timeoutMs);
    request.on("error", (error) => finish({ ok: false, code: null, error: `could not connect: ${errorSummary(error)}` }));
    request.end(body);
  });
}

/**
 * The Standard Webhooks headers for one attempt: the id is the row's, the same on
 * every attempt. The timestamp is the attempt's (the event's own time is the body's
 * `timestamp`, the same on every attempt): verifiers refuse a signature more than
 * about 5 minutes old, and a retry may come hours later.
 */
export function signedHeaders(secret: string, messageId: string, body: string, at = new Date()): Record<string, string> {
  return {
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, at, body),
  };
}

function backoff(attempts: number, options: SenderOptions): number {
  return Math.min(options.backoffMs * 4 ** Math.max(0, attempts - 1), options.maxBackoffMs);
}

/** Records an attempt's outcome, unless the claim lapsed and another sender took the row meanwhile. */
async function record(db: Conn, row: Claimed, outcome: Outcome, options: SenderOptions): Promise<void> {
  const now = new Date();
  const at = now.toISOString();
  await writeTransaction(db, async (writes) => {
    const mine = [row.id, row.claimedUntil, row.attempts];
    if (outcome.ok) {
      // Delivered: the payload (and any fact text in it) is not kept.
      await writes.run(
        `UPDATE webhook_deliveries SET status = 'delivered', payload = NULL, claimed_until = NULL, last_code = ?, last_error = NULL
          WHERE id = ? AND claimed_until = ? AND attempts = ?`,
        [outcome.code, ...mine],
      );
      await writes.run("UPDATE webhook_endpoints SET failures_in_a_row = 0 WHERE id = ?", [row.endpointId]);
      return;
    }
    const givenUp = now.getTime() - Date.parse(row.createdAt) >= GIVE_UP_AFTER_MS;
    const next = new Date(now.getTime() + backoff(row.attempts, options)).toISOString();
    await writes.run(
      `UPDATE webhook_deliveries SET status = ?, payload = CASE WHEN ? THEN NULL ELSE payload END, next_at = ?,
          claimed_until = NULL, last_code = ?, last_error = ?
        WHERE id = ? AND claimed_until = ? AND attempts = ?`,
      [givenUp ? "failed" : "pending", givenUp ? 1 : 0, next, outcome.code, outcome.error.slice(0, 300), ...mine],
    );
    await writes.run(
      `UPDATE webhook_endpoints SET failures_in_a_row = failures_in_a_row + 1,
          enabled = CASE WHEN failures_in_a_row + 1 >= ? THEN 0 ELSE enabled END,
          disabled_reason = CASE WHEN failures_in_a_row + 1 >= ? AND enabled = 1 THEN ? ELSE disabled_reason END
        WHERE id = ?`,
      [
        DISABLE_AFTER_FAILURES,
        DISABLE_AFTER_FAILURES,
        `Turned off at ${at} after ${DISABLE_AFTER_FAILURES} failed deliveries in a row; the last ${outcome.error.slice(0, 200)}.`,
        row.endpointId,
      ],
    );
  });
}

/** Sends one claimed row and records how it went. Never throws for the receiver. */
async function deliver(db: Conn, row: Claimed, options: SenderOptions): Promise<Outcome> {
  const body = row.payload ?? "{}";
  const outcome = await post(row.url, body, signedHeaders(row.secret, row.messageId, body), options.timeoutMs);
  await record(db, row, outcome, options);
  return outcome;
}

/** Claims and sends one batch; the count claimed (0: nothing due). */
export async function sendDueBatch(db: Conn, options: SenderOptions = DEFAULT_OPTIONS): Promise<number> {
  const claimed = await claimDue(db, options);
  // Rows of different facts or endpoints: at most one per fact and endpoint is ever claimed at once.
  await Promise.all(claimed.map((row) => deliver(db, row, options)));
  return claimed.length;
}

const LOOP = "webhook-sender";

/** Starts the process's sender loop (once); returns a function that stops it and resolves when it has. */
export function startWebhookSender(db: () => Conn, options: SenderOptions = DEFAULT_OPTIONS): () => Promise<void> {
  return startLoop(LOOP, async () => ({ more: (await sendDueBatch(db(), options)) === options.batch }), {
    idleMs: 1_000,
    // The database busy or gone: try again a little later, or at once when nudged.
    retryMs: () => 5_000,
    nudgeWhileFailing: true,
    events: { failed: "webhooks_failed", recovered: "webhooks_recovered" },
  });
}

/** Wakes this process's sender now (a test event was queued). */
export function nudgeWebhookSender(): void {
  nudgeLoop(LOOP);
}
