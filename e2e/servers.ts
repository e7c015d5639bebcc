/**
 * Servers of the e2e suite's own, beside the shared one: `npm start`'s script on
 * a database file of the test's choosing, and plain HTTP calls to them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { ECHO_KEY, SCOUT_KEY } from "./demo";

export type Server = { process: ChildProcess; port: number; output: () => string };

export function startServer(
  port: number,
  databaseFile: string,
  extraEnv: Record<string, string> = {},
  { detached = false } = {},
): Server {
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
    detached,
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return { process: child, port, output: () => output };
}

/** One request on a connection of its own, so "accepted" is unambiguous: refused, or answered in full. */
export function call(
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

export async function waitUntilReady(server: Server): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const answer = await call(server.port, "GET", "/api/ready");
    if ("status" in answer && answer.status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`server on ${server.port} never became ready:\n${server.output()}`);
}

export function exited(server: Server): Promise<number | null> {
  return new Promise((resolve) => {
    if (server.process.exitCode !== null) resolve(server.process.exitCode);
    else server.process.once("exit", (code) => resolve(code));
  });
}

/** Resident memory of the Next server under `npm start` (its child process), in KiB. */
export function serverRss(server: Server): number {
  const pid = server.process.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  const target = children[0] ?? String(pid);
  const status = readFileSync(`/proc/${target}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}
