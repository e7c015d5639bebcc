/**
 * The sender as servers run it: in processes of their own, on one database file.
 * Two senders never deliver one row twice; a sender killed with SIGKILL mid-queue
 * loses nothing (another takes its rows once its claims lapse), and each fact's
 * events still arrive in order. The kill comes while deliveries are in flight (the
 * receiver holds them unanswered): exactly those arrive again, with the same
 * webhook-id and body, so a receiver deduplicating by the id (as Standard Webhooks
 * asks) acts on each event once. HTTP allows no better: a receiver may have acted
 * on a request whose answer the dead sender never read.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { readAll } from "@/db/client";
import { OPERATOR } from "@/lib/admin/audit";
import { remember, setPinned, type PersonActor } from "@/lib/memory/writes";
import { REMOTE_TESTS, tempDbForTests } from "@/lib/testing/temp-db";
import { startReceiver, type Receiver } from "@/lib/testing/webhook-receiver";
import { createEndpoint } from "./endpoints";
import type { SenderOptions } from "./sender";

const ROOT = path.resolve(import.meta.dirname, "../..");
const OLIVIA: PersonActor = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
const FACTS = 40; // two events each: remembered, then pinned

const t = tempDbForTests({ demo: true, each: true });
let receiver: Receiver;
let children: ChildProcess[] = [];
let secret = "";

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

beforeEach(async () => {
  receiver.received.length = 0;
  process.env.MNEMO_WEBHOOKS_ALLOW_PRIVATE = "1";
  const made = await createEndpoint(t.db, OPERATOR, "acme", { url: receiver.url(), events: ["fact.remembered", "fact.pinned"] });
  if (made.status !== "created") throw new Error(made.status);
  secret = made.secret;
  for (let i = 0; i < FACTS; i++) {
    const kept = await remember(t.db, {
      agentId: "scout",
      workspaceId: "acme",
      body: `Queue fact number ${i} for the sender.`,
      scope: "workspace",
      scopeRef: "",
      scopeLabel: null,
      source: { kind: "message", ref: null, label: null, channelId: null },
      by: { kind: "agent", id: "scout", name: "Scout" },
      pinned: false,
    });
    if (kept.status !== "created") throw new Error(kept.status);
    await setPinned(t.db, OLIVIA, "scout", kept.fact.id, true);
  }
});

afterEach(() => {
  delete process.env.MNEMO_WEBHOOKS_ALLOW_PRIVATE;
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  children = [];
});

function startSender(options: Partial<SenderOptions>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/testing/webhook-sender-child.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: t.url, MNEMO_TEST_SENDER: JSON.stringify(options), NODE_OPTIONS: "", LOG_LEVEL: "silent" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let said = "";
    child.stderr?.on("data", (chunk) => {
      said += String(chunk);
      if (said.includes("ready")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`the sender exited (${code}): ${said}`)));
  });
}

async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 25));
}

const pendingCount = async () =>
  Number((await readAll<{ n: number }>(t.db, "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending'", []))[0]?.n);

type Arrival = { id: string; type: string; factId: string };
function arrivals(): Arrival[] {
  const verifier = new Webhook(secret);
  return receiver.received.map((request) => {
    verifier.verify(request.body, request.headers as Record<string, string>); // throws on a bad signature
    const payload = JSON.parse(request.body.toString()) as { type: string; data: { fact_id: string } };
    return { id: String(request.headers["webhook-id"]), type: payload.type, factId: payload.data.fact_id };
  });
}

/** Each fact's remembered arrives (first) before its pinned. */
function expectOrderPerFact(list: Arrival[]) {
  const first = new Map<string, number>();
  list.forEach((arrival, index) => {
    if (!first.has(arrival.id)) first.set(arrival.id, index);
  });
  const byFact = new Map<string, Record<string, number>>();
  for (const arrival of list) {
    const seen = byFact.get(arrival.factId) ?? {};
    seen[arrival.type] = first.get(arrival.id)!;
    byFact.set(arrival.factId, seen);
  }
  expect(byFact.size).toBe(FACTS);
  for (const seen of byFact.values()) expect(seen["fact.remembered"]).toBeLessThan(seen["fact.pinned"]);
}

describe.skipIf(REMOTE_TESTS)("senders in processes of their own, on one file", () => {
  it("two senders deliver every row exactly once, each fact in order", async () => {
    receiver.answer = () => ({ delayMs: 5, status: 204 });
    const senders = await Promise.all([startSender({ batch: 4, holdMs: 30_000 }), startSender({ batch: 4, holdMs: 30_000 })]);
    await until(async () => (await pendingCount()) === 0);
    expect(senders.map((child) => child.exitCode)).toEqual([null, null]); // both ran to the end
    const list = arrivals();
    const ids = list.map((a) => a.id);
    expect(ids).toHaveLength(2 * FACTS);
    expect(new Set(ids).size).toBe(2 * FACTS);
    const queued = await readAll<{ id: string }>(t.db, "SELECT message_id AS id FROM webhook_deliveries WHERE status = 'delivered'", []);
    expect(new Set(ids)).toEqual(new Set(queued.map((row) => row.id)));
    expectOrderPerFact(list);
  });

  it("a sender killed with SIGKILL while deliveries are in flight loses nothing, and repeats only those, same id and bytes", async () => {
    const batch = 6;
    const answered = 25; // the receiver answers this many, then holds every request open: those are in flight
    receiver.answer = (_request, index) => (index < answered ? { delayMs: 5, status: 204 } : "hang");
    // A long timeout: the held requests stay in flight until the kill, however slow the machine.
    const first = await startSender({ batch, holdMs: 1_000, timeoutMs: 120_000 });
    const claimed = async () =>
      Number(
        (await readAll<{ n: number }>(t.db, "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'pending' AND claimed_until IS NOT NULL", []))[0]?.n,
      );
    // Killed once every row it holds has reached the receiver and none has its answer: all it holds is in flight.
    await until(async () => receiver.received.length > answered && (await claimed()) === receiver.received.length - answered);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));
    const inFlight = arrivals().slice(answered).map((a) => a.id);
    expect(inFlight.length).toBeGreaterThan(0);
    expect(inFlight.length).toBeLessThanOrEqual(batch);

    receiver.answer = () => ({ delayMs: 5, status: 204 });
    await startSender({ batch, holdMs: 1_000 });
    await until(async () => (await pendingCount()) === 0);
    const list = arrivals(); // every signature verified, repeats included
    const ids = list.map((a) => a.id);
    const queued = await readAll<{ id: string; status: string }>(t.db, "SELECT message_id AS id, status FROM webhook_deliveries", []);
    expect(queued).toHaveLength(2 * FACTS);
    expect(queued.every((row) => row.status === "delivered")).toBe(true);
    // No loss: every queued event arrived.
    expect(new Set(ids)).toEqual(new Set(queued.map((row) => row.id)));
    // The only repeats are the deliveries in flight at the kill, each sent once more, with the same id and body bytes.
    const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(repeated.length).toBeLessThanOrEqual(inFlight.length);
    expect(new Set(repeated)).toEqual(new Set(inFlight));
    for (const id of repeated) {
      const bodies = receiver.received.filter((request) => request.headers["webhook-id"] === id).map((request) => request.body.toString());
      expect(new Set(bodies).size).toBe(1);
    }
    // What a receiver that drops seen ids acts on: each event exactly once, each fact's in order.
    const deduped = list.filter((arrival, index) => ids.indexOf(arrival.id) === index);
    expect(deduped).toHaveLength(2 * FACTS);
    expectOrderPerFact(deduped);
  });
});
