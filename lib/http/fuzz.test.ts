/**
 * The HTTP edges, fuzzed: any method Node's server accepts, and paths with
 * percent-escapes that are not UTF-8, sent as raw HTTP to the route handlers
 * behind the HTTP edge. Never a 500; under /api every refusal is the API's
 * `{"error": {"code", "message"}}` envelope; every 405 names exactly the methods
 * the route serves.
 */
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowHeader } from "@/lib/http/allowed-methods";
import { appDemoDbForFile, DEMO_KEYS } from "@/lib/testing/app-db";
import { startGuardedServer } from "@/lib/testing/guarded-server";
import { rawRequest } from "@/lib/testing/raw-http";
import { ERROR_CODES } from "@/lib/validation/agent-api";

const SCOUT_KEY = DEMO_KEYS.scout;
const ROUTES = ["/api/health", "/api/ready", "/api/mcp", "/api/v1/openapi.json", "/api/v1/recall", "/api/v1/memories", "/api/v1/memories/f1", "/api/v1/nope/deeper"];
// CONNECT opens a tunnel rather than asking for a resource: Node hands it to another event, never to a route.
const METHODS = http.METHODS.filter((method) => method !== "CONNECT");
const BROKEN_ESCAPES = ["%", "%F", "%FF", "%fe", "%C0%80", "%ED%A0%80", "%E2%82", "%G1", "%%", "%C3", "%F4%90%80%80"];

let server: { port: number; close: () => Promise<void> };

appDemoDbForFile();
beforeAll(async () => {
  server = await startGuardedServer();
});
afterAll(async () => {
  await server.close();
});

/**
 * A refusal under /api is the envelope with a known code; a success is whatever
 * the route answers. Once a request with a key reaches the MCP transport, its
 * refusals are JSON-RPC errors, the envelope MCP clients read.
 */
function expectApiAnswer(method: string, path: string, answer: { status: number; body: string }) {
  expect(answer.status).toBeLessThan(500);
  if (answer.status < 400 || method === "HEAD") return;
  const body = JSON.parse(answer.body) as { jsonrpc?: string; error: { code: string | number; message: string } };
  if (path === "/api/mcp" && body.jsonrpc === "2.0") expect(body.error.code).toEqual(expect.any(Number));
  else expect(ERROR_CODES).toContain(body.error.code);
  expect(body.error.message).toEqual(expect.any(String));
}

describe("random methods", () => {
  it("never a 500; refusals in the envelope; a 405's Allow is the route's own list", async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...METHODS), fc.constantFrom(...ROUTES), fc.boolean(), async (method, path, keyed) => {
        const answer = await rawRequest(server.port, method, path, keyed ? { authorization: `Bearer ${SCOUT_KEY}` } : {});
        expectApiAnswer(method, path, answer);
        if (answer.status === 405) expect(answer.headers.allow).toBe(allowHeader(path));
      }),
      { numRuns: 300 },
    );
  });
});

describe("malformed percent-escapes in the path", () => {
  const segment = fc.stringMatching(/^[a-z0-9-]{0,6}$/);
  it("a 400 in the envelope, never a 500, whatever the method and the route", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...METHODS),
        fc.constantFrom(...ROUTES),
        segment,
        fc.constantFrom(...BROKEN_ESCAPES),
        segment,
        async (method, route, before, broken, after) => {
          const answer = await rawRequest(server.port, method, `${route}/${before}${broken}_${after}`);
          expect(answer.status).toBe(400);
          if (method !== "HEAD") expect(JSON.parse(answer.body).error.code).toBe("malformed_request");
        },
      ),
      { numRuns: 300 },
    );
  });

  it("well-formed escapes still reach the route", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" }), async (id) => {
        const answer = await rawRequest(server.port, "DELETE", `/api/v1/memories/${encodeURIComponent(id)}?channel=general`, {
          authorization: `Bearer ${SCOUT_KEY}`,
        });
        expectApiAnswer("DELETE", "/api/v1/memories/x", answer);
        expect(JSON.parse(answer.body).error.code).not.toBe("malformed_request");
      }),
      { numRuns: 100 },
    );
  });
});
