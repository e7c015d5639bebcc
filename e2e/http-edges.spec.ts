/**
 * The HTTP edges of the production server, as raw HTTP (browsers and fetch cannot
 * send TRACE or a path like /%FF): methods nothing serves, broken percent-escapes,
 * discovery paths MCP clients probe, and MCP from a foreign web page. Many of
 * these are answered by Next before any route code runs, so only a real server
 * shows them. A server of this spec's own, so its log can be read afterwards.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { expect, test } from "@playwright/test";
import { authSecret } from "../lib/config";
import { rawRequest, type Answer } from "../lib/testing/raw-http";
import { SCOUT_KEY } from "./demo";
import { waitUntilReady, type Server } from "./servers";

test.describe.configure({ mode: "serial" });

const PUBLIC_URL = "http://mnemo.example.test";
let server: Server;

/**
 * `next start` on the shared server's build and database (migrated and seeded
 * already), with a public address set: `npm start`'s script would rebuild here
 * whenever a source changed since the shared server's build.
 */
function startNext(port: number): Server {
  let output = "";
  const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
  const child = spawn(process.execPath, [nextBin, "start", "--port", String(port)], {
    env: {
      ...process.env,
      DATABASE_URL: process.env.MNEMO_E2E_DATABASE_URL,
      AUTH_SECRET: authSecret(),
      AUTH_TRUST_HOST: "true",
      AUTH_URL: PUBLIC_URL,
      MNEMO_API_RATE_LIMIT: "1000000",
      LOG_LEVEL: "warn",
      NEXT_TELEMETRY_DISABLED: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return { process: child, port, output: () => output };
}

test.beforeAll(async () => {
  test.setTimeout(120_000);
  server = startNext(3187);
  await waitUntilReady(server);
});
test.afterAll(() => {
  server?.process.kill("SIGINT");
});

const send = (method: string, target: string, headers: Record<string, string> = {}) => rawRequest(server.port, method, target, headers);
const errorCode = (answer: Answer) => (JSON.parse(answer.body) as { error: { code: string } }).error.code;

const API_ROUTES: Record<string, string> = {
  "/api/health": "GET, HEAD, OPTIONS",
  "/api/ready": "GET, HEAD, OPTIONS",
  "/api/v1/openapi.json": "GET, HEAD, OPTIONS",
  "/api/v1/recall": "GET, HEAD, OPTIONS, POST",
  "/api/v1/memories": "POST, OPTIONS",
  "/api/v1/memories/some-fact": "DELETE, OPTIONS",
  "/api/mcp": "POST, OPTIONS",
  "/api/auth/session": "GET, HEAD, OPTIONS, POST",
};

test("TRACE and other methods a route does not serve: 405 with exactly its methods in Allow, never a 500", async () => {
  const wrong: string[] = [];
  for (const [route, allow] of Object.entries(API_ROUTES)) {
    const served = allow.split(", ");
    for (const method of ["TRACE", "PUT", "PATCH", "DELETE", "POST", "GET", "PROPFIND", "PURGE"].filter((m) => !served.includes(m))) {
      const answer = await send(method, route, { authorization: `Bearer ${SCOUT_KEY}` });
      const ok = answer.status === 405 && answer.headers.allow === allow && errorCode(answer) === "method_not_allowed";
      if (!ok) wrong.push(`${method} ${route}: ${answer.status} allow=${answer.headers.allow} ${answer.body.slice(0, 120)}`);
    }
    const options = await send("OPTIONS", route);
    if (options.status !== 204 || options.headers.allow !== allow) wrong.push(`OPTIONS ${route}: ${options.status} allow=${options.headers.allow}`);
  }
  for (const page of ["/", "/signin", "/w/acme"]) {
    for (const method of ["TRACE", "PUT", "DELETE", "PROPFIND"]) {
      const answer = await send(method, page);
      if (answer.status !== 405 || answer.headers.allow !== "GET, HEAD, POST") wrong.push(`${method} ${page}: ${answer.status} allow=${answer.headers.allow}`);
    }
  }
  const unknown = await send("TRACE", "/api/v1/no-such-call");
  if (unknown.status !== 404 || errorCode(unknown) !== "not_found") wrong.push(`TRACE /api/v1/no-such-call: ${unknown.status}`);
  expect(wrong).toEqual([]);
});

test("a broken percent-escape in the path: 400 in the envelope under /api, never a 500", async () => {
  for (const broken of ["%FF", "a%", "%C0%80", "%ED%A0%80", "%E2%82", "%zz"]) {
    for (const method of ["GET", "DELETE", "POST", "TRACE"]) {
      const api = await send(method, `/api/v1/memories/${broken}?channel=general`, { authorization: `Bearer ${SCOUT_KEY}` });
      expect([api.status, errorCode(api)], `${method} ${broken}`).toEqual([400, "malformed_request"]);
    }
    const page = await send("GET", `/w/acme/agents/${broken}/memory`);
    expect(page.status, `page ${broken}`).toBe(400);
  }
  // In the query, a broken escape is only an odd value: the route answers as it does for any unknown channel.
  const query = await send("GET", "/api/v1/recall?channel=%FF&asker=ana", { authorization: `Bearer ${SCOUT_KEY}` });
  expect([query.status, errorCode(query)]).toEqual([404, "channel_not_found"]);
});

test("discovery paths MCP clients probe are 404, not a redirect to sign-in", async () => {
  for (const probe of [
    "/.well-known/oauth-protected-resource",
    "/.well-known/oauth-protected-resource/api/mcp",
    "/.well-known/oauth-authorization-server",
    "/.well-known/openid-configuration",
  ]) {
    const answer = await send("GET", probe);
    expect([answer.status, answer.headers.location], probe).toEqual([404, undefined]);
  }
  const mcp = await send("POST", "/api/mcp", { "content-type": "application/json", accept: "application/json, text/event-stream" });
  expect(mcp.status).toBe(401);
});

test("MCP refuses a web page of another origin, and takes one from the site itself or none", async () => {
  const initialize = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "e2e", version: "1.0.0" } },
  });
  const call = (origin?: string) =>
    fetch(`http://127.0.0.1:${server.port}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${SCOUT_KEY}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(origin ? { origin } : {}),
      },
      body: initialize,
    });
  const foreign = await call("https://evil.example");
  expect(foreign.status).toBe(403);
  expect((await foreign.json()).error.code).toBe("forbidden");
  expect((await call(PUBLIC_URL)).status).toBe(200);
  const plain = await call();
  expect(plain.status).toBe(200);
  expect((await plain.json()).result.capabilities.tools.listChanged).toBeUndefined();
});

test("POST /api/v1/memories takes JSON only: 415 for text, forms and no type", async () => {
  const body = JSON.stringify({ channel: "dm-ana", asker: "ana", fact: "Ana's form note." });
  for (const type of ["text/plain", "application/x-www-form-urlencoded", undefined]) {
    const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/memories`, {
      method: "POST",
      headers: { authorization: `Bearer ${SCOUT_KEY}`, ...(type ? { "content-type": type } : {}) },
      body: new TextEncoder().encode(body),
    });
    expect([response.status, (await response.json()).error.code], String(type)).toEqual([415, "unsupported_media_type"]);
  }
});

test("none of it left a stack trace or an error in the server's log", async () => {
  expect(server.output()).not.toMatch(/\n\s+at |TypeError|URIError|Internal Server Error|⨯/);
});
