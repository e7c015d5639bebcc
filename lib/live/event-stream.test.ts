/**
 * The live stream over real sockets, through a proxy that cuts connections idle
 * for a second (lib/testing/idle-proxy.ts), as nginx or a load balancer would after
 * a minute: heartbeats keep it open past the timeout and a change still arrives;
 * without them it is cut, and the browser's reconnect with Last-Event-ID (the
 * last version it heard) is told at once of the change made while it was away.
 * The heartbeat is 100 ms here instead of 15 s; the route's own handling of
 * Last-Event-ID is in e2e/live.spec.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startIdleProxy, type IdleProxy } from "@/lib/testing/idle-proxy";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { changedEvent, liveStream } from "./event-stream";
import { liveVersionOf, MemoryWatcher, parseVersion } from "./memory-watcher";

const t = tempDbForTests({ demo: true });
const IDLE_MS = 1_000;
let heartbeatMs = 100;
let watcher: MemoryWatcher;
let server: http.Server;
let proxy: IdleProxy;
const clients: http.ClientRequest[] = [];

beforeAll(async () => {
  watcher = new MemoryWatcher(t.db, 50);
  const sessionVersion = Number((await t.db.$client.execute("SELECT session_version AS v FROM users WHERE id = 'ana'")).rows[0].v);
  // Serves Ana's stream of Scout's memory the way the route does once it has checked who asks.
  server = http.createServer((request, response) => {
    const abort = new AbortController();
    response.on("close", () => abort.abort());
    const seen = parseVersion(request.headers["last-event-id"] as string | undefined);
    const body = liveStream(
      watcher,
      { agentId: "scout", workspaceId: "acme", userId: "ana", sessionVersion, expiresAt: Date.now() + 3_600_000, seen },
      abort.signal,
      heartbeatMs,
    );
    response.writeHead(200, { "content-type": "text/event-stream" });
    void (async () => {
      const reader = body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) response.write(chunk.value);
      response.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy = await startIdleProxy({ host: "127.0.0.1", port: (server.address() as AddressInfo).port }, IDLE_MS);
});

afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
});

afterAll(async () => {
  await proxy.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  watcher.stop();
});

/** A browser's EventSource, reduced to its bytes: connects through the proxy, sending Last-Event-ID when it has one. */
function connect(lastEventId: string): { text: () => string; closed: () => boolean } {
  let text = "";
  let closed = false;
  const request = http.get({ host: "127.0.0.1", port: proxy.port, path: "/live", headers: { "last-event-id": lastEventId } }, (response) => {
    response.setEncoding("utf8");
    response.on("data", (chunk: string) => (text += chunk));
    response.on("close", () => (closed = true));
  });
  request.on("error", () => (closed = true));
  clients.push(request);
  return { text: () => text, closed: () => closed };
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function touchScout(): Promise<string> {
  await t.db.$client.execute("UPDATE facts SET pinned = 1 - pinned WHERE id = (SELECT id FROM facts WHERE agent_id = 'scout' LIMIT 1)");
  return (await liveVersionOf(t.db, "scout"))!;
}

const heartbeats = (text: string) => text.split(": heartbeat\n\n").length - 1;

it("heartbeats keep a quiet stream open past a proxy's idle timeout, and a change still arrives through it", async () => {
  heartbeatMs = 100;
  const stream = connect((await liveVersionOf(t.db, "scout"))!);
  // 15 heartbeats: at least 1.5 s, half again the proxy's idle timeout, with nothing else sent.
  await until(() => heartbeats(stream.text()) >= 15 || stream.closed());
  expect(stream.closed()).toBe(false);
  expect(proxy.cut).toBe(0);
  expect(stream.text()).not.toContain("event: changed");

  const moved = await touchScout();
  await until(() => stream.text().includes("event: changed") || stream.closed());
  expect(stream.text()).toContain(changedEvent(moved));
});

it("without heartbeats the proxy cuts the stream; reconnecting with Last-Event-ID hears the change made meanwhile", async () => {
  heartbeatMs = Number.POSITIVE_INFINITY;
  const cutBefore = proxy.cut;
  const before = (await liveVersionOf(t.db, "scout"))!;
  const first = connect(before);
  await until(() => first.closed());
  expect(proxy.cut).toBe(cutBefore + 1);
  expect(first.text()).not.toContain("event: changed");

  const moved = await touchScout(); // while no stream is open
  const again = connect(before); // what an EventSource sends: the id of the last event it had
  await until(() => again.text().includes("event: changed") || again.closed());
  expect(again.text()).toContain(changedEvent(moved));
});
