/**
 * Running Mnemo as an operator would: servers of our own (beside the shared e2e
 * server), started with `npm start`'s script on their own database files, put
 * under load, stopped with SIGTERM, and run two at a time on one file.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ECHO_KEY, SCOUT_KEY } from "./demo";

test.describe.configure({ mode: "serial" });

type Server = { process: ChildProcess; port: number; output: () => string };

function startServer(port: number, databaseFile: string, extraEnv: Record<string, string> = {}): Server {
  let output = "";
  // One process (tsx as a loader, not its CLI), so the signal reaches start.ts itself.
  const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/start.ts"], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `file:${databaseFile}`,
      MNEMO_DEMO_SCOUT_KEY: SCOUT_KEY,
      MNEMO_DEMO_ECHO_KEY: ECHO_KEY,
      MNEMO_API_RATE_LIMIT: "1000000",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return { process: child, port, output: () => output };
}

/** One request on a connection of its own, so "accepted" is unambiguous: refused, or answered in full. */
function call(
  port: number,
  method: string,
  pathname: string,
  body?: unknown,
): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: pathname,
        agent: false,
        headers: {
          authorization: `Bearer ${SCOUT_KEY}`,
          connection: "close",
          ...(payload ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        response.on("error", (error) => resolve({ error: `response: ${error.message}` }));
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    request.end(payload);
  });
}

async function waitUntilReady(server: Server): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const answer = await call(server.port, "GET", "/api/ready");
    if ("status" in answer && answer.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server on ${server.port} never became ready:\n${server.output()}`);
}

function exited(server: Server): Promise<number | null> {
  return new Promise((resolve) => {
    if (server.process.exitCode !== null) resolve(server.process.exitCode);
    else server.process.once("exit", (code) => resolve(code));
  });
}

test("SIGTERM under load: the server drains, answers every request it accepted, then exits", async () => {
  test.setTimeout(180_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mnemo-sigterm-")), "mnemo.db");
  const server = startServer(3191, file, { MNEMO_DRAIN_SECONDS: "2" });
  await waitUntilReady(server);

  // Eight clients behind a "load balancer" that polls /api/ready and stops routing new requests on a 503.
  const answered: number[] = [];
  const failed: string[] = [];
  let routing = true;
  let sawDraining = false;
  const balancer = (async () => {
    while (routing) {
      const ready = await call(server.port, "GET", "/api/ready");
      if (!("status" in ready) || ready.status === 503) {
        sawDraining = "status" in ready;
        routing = false;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const client = async () => {
    while (routing) {
      const answer = await call(server.port, "GET", "/api/v1/recall?channel=dm-ana&asker=ana");
      if ("status" in answer) answered.push(answer.status);
      else failed.push(answer.error);
    }
  };
  const clients = Array.from({ length: 8 }, client);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const answeredBeforeSignal = answered.length;
  server.process.kill("SIGTERM");
  const code = await exited(server);
  await Promise.all([balancer, ...clients]);

  expect(answeredBeforeSignal, "the server was under load").toBeGreaterThan(20);
  expect(sawDraining, "readiness said 503 while draining").toBe(true);
  expect(failed, "no request failed").toEqual([]);
  expect(answered.length).toBeGreaterThan(answeredBeforeSignal);
  expect(new Set(answered)).toEqual(new Set([200]));
  expect(code).toBe(0);
  const after = await call(server.port, "GET", "/api/health");
  expect(after).toEqual({ error: "ECONNREFUSED" });
});

test("two servers on one database file share one memory under concurrent writes", async () => {
  test.setTimeout(240_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mnemo-two-")), "mnemo.db");
  // The first start seeds the demo; the second finds it and leaves it alone.
  const first = startServer(3192, file);
  await waitUntilReady(first);
  const second = startServer(3193, file);
  await waitUntilReady(second);

  try {
    const writes = Array.from({ length: 120 }, (_, i) => {
      const server = i % 2 ? second : first;
      return call(server.port, "POST", "/api/v1/memories", {
        channel: "dm-ana",
        asker: "ana",
        fact: `Ana's note number ${i} from server ${server.port}.`,
      });
    });
    const reads = Array.from({ length: 60 }, (_, i) =>
      call(i % 2 ? second.port : first.port, "GET", "/api/v1/recall?channel=general&asker=max"),
    );
    const results = await Promise.all([...writes, ...reads]);
    const statuses = results.map((r) => ("status" in r ? r.status : r.error));
    expect(statuses.slice(0, 120).every((s) => s === 201), JSON.stringify(statuses)).toBe(true);
    expect(statuses.slice(120).every((s) => s === 200), JSON.stringify(statuses)).toBe(true);

    // Every acknowledged write is visible from both servers (facts listed newest first; recall shows ≤ 40).
    for (const server of [first, second]) {
      const answer = await call(server.port, "GET", "/api/v1/recall?channel=dm-ana&asker=ana");
      expect("status" in answer && answer.status).toBe(200);
      const { facts } = JSON.parse((answer as { body: string }).body) as { facts: { body: string }[] };
      expect(facts.filter((f) => f.body.startsWith("Ana's note number")).length).toBe(39);
    }
  } finally {
    first.process.kill("SIGTERM");
    second.process.kill("SIGTERM");
    await Promise.all([exited(first), exited(second)]);
  }
});
