/**
 * Webhooks end to end on a real database file and a real HTTP receiver on
 * 127.0.0.1: changes queue deliveries in their own transaction (triggers), the
 * sender signs them (verified with the standardwebhooks package's own verifier),
 * keeps each fact's order, retries 500s and timeouts, follows no redirect, refuses
 * private addresses unless allowed, disables an endpoint after a run of failures,
 * and never lets a channel or person fact's text leave — not even in the bytes.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { readAll } from "@/db/client";
import { DEMO_FACTS } from "@/db/seed";
import { OPERATOR } from "@/lib/admin/audit";
import { checkpoint, filesHolding, tablesHolding } from "@/lib/testing/residue";
import { REMOTE_TESTS, tempDbForTests } from "@/lib/testing/temp-db";
import { startReceiver, type Receiver } from "@/lib/testing/webhook-receiver";
import { forgetFact, purgeFact, remember, setPinned, type NewFact, type PersonActor } from "@/lib/memory/writes";
import { isPrivateAddress } from "./address";
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, queueTestEvent, setEndpointEnabled } from "./endpoints";
import { WEBHOOK_EVENTS, type WebhookEvent } from "./events";
import { DISABLE_AFTER_FAILURES, sendDueBatch, type SenderOptions } from "./sender";

const t = tempDbForTests({ demo: true, each: true });
const OLIVIA: PersonActor = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
const ANA: PersonActor = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };
const SCOUT = { kind: "agent" as const, id: "scout", name: "Scout" };
// A timeout a healthy loopback answer never misses on a busy machine (attempts are counted exactly below).
const FAST: SenderOptions = { timeoutMs: 1_500, backoffMs: 1, maxBackoffMs: 1, holdMs: 60_000, batch: 20 };

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answer = () => 204;
  process.env.MNEMO_WEBHOOKS_ALLOW_PRIVATE = "1";
});
afterEach(() => {
  delete process.env.MNEMO_WEBHOOKS_ALLOW_PRIVATE;
});

function fact(body: string, where: Partial<NewFact> = {}): NewFact {
  return {
    agentId: "scout",
    workspaceId: "acme",
    body,
    scope: "workspace",
    scopeRef: "",
    scopeLabel: null,
    source: { kind: "message", ref: null, label: "@max in #general", channelId: "general" },
    by: SCOUT,
    pinned: false,
    ...where,
  };
}

async function keep(body: string, where: Partial<NewFact> = {}): Promise<string> {
  const result = await remember(t.db, fact(body, where));
  if (result.status !== "created") throw new Error(`not created: ${result.status}`);
  return result.fact.id;
}

async function addEndpoint(events: readonly WebhookEvent[] = WEBHOOK_EVENTS, path = "/hooks") {
  const made = await createEndpoint(t.db, OPERATOR, "acme", { url: receiver.url(path), events: [...events] });
  if (made.status !== "created") throw new Error(`endpoint not created: ${made.status}`);
  return made;
}

/** Sends until nothing is due (each retry's 1 ms backoff has passed by the next round). */
async function drain(options: SenderOptions = FAST): Promise<void> {
  for (let round = 0; round < 200; round++) {
    const pending = await readAll<{ n: number }>(t.db, "SELECT count(*) AS n FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE d.status = 'pending' AND e.enabled = 1", []);
    if (!pending[0]?.n) return;
    await sendDueBatch(t.db, options);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error("the queue did not drain");
}

type Payload = { type: string; timestamp: string; data: Record<string, unknown> };
const delivered = (path = "/hooks") =>
  receiver.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString("utf8")) as Payload);

describe("queued with the change, signed, filtered by event", () => {
  it("a workspace fact's remember and pin reach the receiver with its text, signed so the package's verifier accepts them", async () => {
    const { secret } = await addEndpoint(["fact.remembered", "fact.pinned"]);
    const id = await keep("Invoices go out on the first Monday.");
    await setPinned(t.db, OLIVIA, "scout", id, true);
    await setPinned(t.db, OLIVIA, "scout", id, false); // unpinned: not asked for
    await drain();
    const verifier = new Webhook(secret);
    expect(receiver.received).toHaveLength(2);
    for (const request of receiver.received) {
      expect(() => verifier.verify(request.body, request.headers as Record<string, string>)).not.toThrow();
    }
    // A body changed in transit fails the same verifier.
    const [first] = receiver.received;
    expect(() => verifier.verify(Buffer.from(first.body.toString().replace("first", "last")), first.headers as Record<string, string>)).toThrow();
    expect(delivered().map((p) => [p.type, p.data.fact_id, p.data.text, p.data.scope])).toEqual([
      ["fact.remembered", id, "Invoices go out on the first Monday.", "workspace"],
      ["fact.pinned", id, "Invoices go out on the first Monday.", "workspace"],
    ]);
    expect(delivered()[1].data.actor).toEqual({ kind: "user", id: "olivia", name: "Olivia Owen" });
    // Delivered rows keep no payload.
    const rows = await readAll<{ payload: string | null; status: string }>(t.db, "SELECT payload, status FROM webhook_deliveries", []);
    expect(rows).toEqual([
      { payload: null, status: "delivered" },
      { payload: null, status: "delivered" },
    ]);
  });

  it("a refused change queues nothing; an endpoint turned off queues nothing; another workspace's change queues nothing", async () => {
    const endpoint = await addEndpoint();
    await remember(t.db, fact("Echo knows Globex things.", { agentId: "echo", workspaceId: "globex", by: { kind: "agent", id: "echo", name: "Echo" } }));
    await setEndpointEnabled(t.db, OPERATOR, "acme", endpoint.id, false);
    await keep("Nobody hears this one.");
    const duplicate = await remember(t.db, fact("   ")); // refused: nothing written
    expect(duplicate.status).toBe("invalid_fact");
    expect(await readAll(t.db, "SELECT id FROM webhook_deliveries", [])).toEqual([]);
  });

  it("the test event reaches the endpoint signed, and the log shows it delivered with its code", async () => {
    const endpoint = await addEndpoint(["fact.purged"]);
    expect(await queueTestEvent(t.db, "acme", endpoint.id)).toEqual({ status: "changed" });
    expect(await queueTestEvent(t.db, "globex", endpoint.id)).toEqual({ status: "not_found" });
    await drain();
    expect(delivered().map((p) => p.type)).toEqual(["webhook.test"]);
    expect(() => new Webhook(endpoint.secret).verify(receiver.received[0].body, receiver.received[0].headers as Record<string, string>)).not.toThrow();
    const log = await listDeliveries(t.db, "acme", endpoint.id);
    expect(log).toMatchObject([{ event: "webhook.test", status: "delivered", attempts: 1, lastCode: 204 }]);
    expect(await listDeliveries(t.db, "globex", endpoint.id)).toEqual([]);
  });
});

describe("privacy", () => {
  it("channel and person facts travel as ids, scope and event only: their text, labels and actors' names never leave", async () => {
    await addEndpoint();
    const channelText = "The DM secret plan is codenamed Bluebird.";
    const personText = "Ana prefers tea over coffee, privately.";
    const inDm = await keep(channelText, { scope: "channel", scopeRef: "dm-ana", scopeLabel: "#dm-ana" });
    const aboutAna = await keep(personText, { scope: "person", scopeRef: "ana", scopeLabel: "Ana Alves" });
    await setPinned(t.db, ANA, "scout", inDm, true);
    await forgetFact(t.db, ANA, "scout", aboutAna);
    await purgeFact(t.db, ANA, "scout", aboutAna);
    await drain();
    const bytes = Buffer.concat(receiver.received.map((r) => Buffer.concat([Buffer.from(JSON.stringify(r.headers)), r.body]))).toString("utf8");
    for (const secret of [channelText, personText, "Bluebird", "tea over coffee", DEMO_FACTS.pairing, "Ana Alves", "#dm-ana"]) {
      expect(bytes).not.toContain(secret);
    }
    expect(delivered().map((p) => [p.type, p.data.fact_id, p.data.scope])).toEqual([
      ["fact.remembered", inDm, "channel"],
      ["fact.remembered", aboutAna, "person"],
      ["fact.pinned", inDm, "channel"],
      ["fact.forgotten", aboutAna, "person"],
      ["fact.purged", aboutAna, "person"],
    ]);
    expect(delivered()[0].data).toEqual({
      fact_id: inDm,
      workspace_id: "acme",
      agent: { id: "scout", handle: "scout" },
      scope: "channel",
      channel_id: "dm-ana",
      proposal: false,
      replaced_fact_id: null,
    });
  });

  it("purging a workspace fact takes its text out of every delivery still waiting, in the same statement", async () => {
    await addEndpoint();
    const text = "The vault code changes every Friday at noon.";
    const id = await keep(text);
    await forgetFact(t.db, OLIVIA, "scout", id);
    const before = await readAll<{ payload: string }>(t.db, "SELECT payload FROM webhook_deliveries", []);
    expect(before.some((row) => row.payload.includes(text))).toBe(true);
    await purgeFact(t.db, OLIVIA, "scout", id);
    const after = await readAll<{ payload: string; event: string }>(t.db, "SELECT payload, event FROM webhook_deliveries ORDER BY id", []);
    expect(after.map((row) => row.event)).toEqual(["fact.remembered", "fact.forgotten", "fact.purged"]);
    for (const row of after) expect(row.payload).not.toContain(text);
    await drain();
    expect(Buffer.concat(receiver.received.map((r) => r.body)).toString()).not.toContain("vault code");
    expect(delivered().map((p) => p.type)).toEqual(["fact.remembered", "fact.forgotten", "fact.purged"]);
  });
});

describe("erasure", () => {
  it.skipIf(REMOTE_TESTS)("a purged workspace fact's text is in no table and no byte of the file, its deliveries waiting or sent", async () => {
    await addEndpoint();
    const marker = "Zyxwvut marker for webhook erasure.";
    const sent = await keep(marker);
    await drain(); // one delivery sent (its payload dropped), then more waiting
    const waiting = await keep(`${marker} Again.`);
    expect(await tablesHolding(t.db, "Zyxwvut")).toContain("webhook_deliveries: payload"); // queued with its text
    for (const id of [sent, waiting]) {
      await forgetFact(t.db, OLIVIA, "scout", id);
      await purgeFact(t.db, OLIVIA, "scout", id);
    }
    await checkpoint(t.db);
    expect(await tablesHolding(t.db, "Zyxwvut")).toEqual([]);
    expect(filesHolding(t.file, "Zyxwvut")).toEqual([]);
  });
});

describe("delivery", () => {
  it("keeps each fact's order while an earlier event is retried after 500s and a timeout", async () => {
    const endpoint = await addEndpoint();
    const id = await keep("Standup moved to 9:30.");
    await setPinned(t.db, OLIVIA, "scout", id, true);
    await setPinned(t.db, OLIVIA, "scout", id, false);
    // The first event fails twice with a 500, then hangs past the timeout once, then is taken.
    receiver.answer = (_request, index) => (index < 2 ? 500 : index === 2 ? "hang" : 204);
    await drain();
    const ids = receiver.received.map((r) => r.headers["webhook-id"]);
    // Four attempts of the same message (one id), then the two later events in order.
    expect(new Set(ids.slice(0, 4)).size).toBe(1);
    expect(delivered().map((p) => p.type)).toEqual([
      "fact.remembered",
      "fact.remembered",
      "fact.remembered",
      "fact.remembered",
      "fact.pinned",
      "fact.unpinned",
    ]);
    const log = await listDeliveries(t.db, "acme", endpoint.id);
    expect(log.map((d) => [d.event, d.status, d.attempts, d.lastCode])).toEqual([
      ["fact.unpinned", "delivered", 1, 204],
      ["fact.pinned", "delivered", 1, 204],
      ["fact.remembered", "delivered", 4, 204],
    ]);
  });

  it("does not follow a redirect: the delivery fails with the 302 and the other address is never asked", async () => {
    const endpoint = await addEndpoint(["fact.remembered"]);
    receiver.answer = (request) => (request.path === "/hooks" ? { redirect: receiver.url("/elsewhere") } : 204);
    await keep("Redirects are not followed.");
    await sendDueBatch(t.db, FAST);
    expect(receiver.received.map((r) => r.path)).toEqual(["/hooks"]);
    expect(await listDeliveries(t.db, "acme", endpoint.id)).toMatchObject([{ status: "pending", attempts: 1, lastCode: 302 }]);
  });

  it("turns an endpoint off after a run of failures and says why; turning it on again starts over", async () => {
    const endpoint = await addEndpoint(["fact.remembered"]);
    receiver.answer = () => 500;
    await keep("This endpoint keeps failing.");
    await drain();
    expect(receiver.received).toHaveLength(DISABLE_AFTER_FAILURES);
    const [row] = await listEndpoints(t.db, "acme");
    expect(row).toMatchObject({ enabled: false, failuresInARow: DISABLE_AFTER_FAILURES, pending: 1 });
    expect(row.disabledReason).toMatch(/after 20 failed deliveries in a row; the last answered 500/);
    receiver.answer = () => 204;
    await setEndpointEnabled(t.db, OPERATOR, "acme", endpoint.id, true);
    await drain();
    expect(await listEndpoints(t.db, "acme")).toMatchObject([{ enabled: true, disabledReason: null, failuresInARow: 0, pending: 0 }]);
  });

  it("gives up on a delivery after 24 hours, dropping its payload", async () => {
    const endpoint = await addEndpoint(["fact.remembered"]);
    await keep("Old news.");
    await t.db.$client.execute("UPDATE webhook_deliveries SET created_at = '2000-01-01T00:00:00.000Z'");
    receiver.answer = () => 503;
    await sendDueBatch(t.db, FAST);
    const rows = await readAll<{ status: string; payload: string | null }>(t.db, "SELECT status, payload FROM webhook_deliveries", []);
    expect(rows).toEqual([{ status: "failed", payload: null }]);
    expect((await listDeliveries(t.db, "acme", endpoint.id))[0]).toMatchObject({ status: "failed", lastCode: 503 });
  });
});

describe("addresses", () => {
  it("refuses loopback and private addresses unless MNEMO_WEBHOOKS_ALLOW_PRIVATE=1, at adding and at sending", async () => {
    const endpoint = await addEndpoint(["fact.remembered"]);
    delete process.env.MNEMO_WEBHOOKS_ALLOW_PRIVATE;
    for (const url of [receiver.url(), "http://localhost:8080/x", "https://10.1.2.3/x", "http://[::1]/x", "http://192.168.0.5/", "http://[::ffff:127.0.0.1]/"]) {
      const made = await createEndpoint(t.db, OPERATOR, "acme", { url, events: ["fact.remembered"] });
      expect(made).toMatchObject({ status: "invalid_url", reason: expect.stringMatching(/private or local/) });
    }
    for (const url of ["ftp://example.com/x", "not a url", "https://user:pw@example.com/"]) {
      expect((await createEndpoint(t.db, OPERATOR, "acme", { url, events: ["fact.remembered"] })).status).toBe("invalid_url");
    }
    // An endpoint added while allowed is not sent to once it is not.
    await keep("Never sent to loopback.");
    await sendDueBatch(t.db, FAST);
    expect(receiver.received).toEqual([]);
    expect((await listDeliveries(t.db, "acme", endpoint.id))[0]).toMatchObject({ status: "pending", lastError: expect.stringMatching(/private or local/) });
  });

  it("judges addresses: private, loopback, link-local and mapped ones are refused; public ones are not", () => {
    for (const address of ["127.0.0.1", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:10.0.0.1", "::"]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "172.32.0.1"]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it("an endpoint of another workspace cannot be changed, deleted or read from here", async () => {
    const endpoint = await addEndpoint();
    expect(await setEndpointEnabled(t.db, OPERATOR, "globex", endpoint.id, false)).toEqual({ status: "not_found" });
    expect(await deleteEndpoint(t.db, OPERATOR, "globex", endpoint.id)).toEqual({ status: "not_found" });
    expect(await listEndpoints(t.db, "globex")).toEqual([]);
    expect(await deleteEndpoint(t.db, OPERATOR, "acme", endpoint.id)).toMatchObject({ status: "changed" });
    expect(await listEndpoints(t.db, "acme")).toEqual([]);
    // The audit list names the host, never the secret.
    const audit = await readAll<{ action: string; summary: string }>(t.db, "SELECT action, summary FROM audit_events WHERE action LIKE 'webhook.%' ORDER BY id", []);
    expect(audit.map((row) => row.action)).toEqual(["webhook.add", "webhook.delete"]);
    expect(audit.every((row) => row.summary === `the webhook endpoint ${new URL(receiver.url()).host}` && !row.summary.includes(endpoint.secret))).toBe(true);
  });
});
