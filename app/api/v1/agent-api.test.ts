/**
 * The agent API's route handlers, called in process with web Requests on a real
 * libSQL file: the check order, the error envelope for every malformed or hostile
 * request (data unchanged), keys and revocation, the rate limit, the OpenAPI
 * document, and the MCP endpoint through the SDK's own client.
 */
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { closeDb } from "@/db";
import { agentKeys, apiRateLimits, factEvents, facts } from "@/db/schema";
import { generateAgentKey, hashAgentKey } from "@/lib/api/agent-keys";
import { RATE_WINDOW_MS } from "@/lib/api/rate-limit";
import { appDemoDbForFile, DEMO_KEYS } from "@/lib/testing/app-db";
import { keepAgentWrites } from "@/lib/testing/write-policies";
import { setWritePolicies } from "@/lib/memory/proposals";
import { OPERATOR } from "@/lib/admin/audit";
import { hostileRequests } from "@/lib/testing/hostile-requests";
import { recallBody, rememberInput, type RecallOutput } from "@/lib/validation/agent-api";
import { DEMO_FACTS } from "@/db/seed";
import * as mcpRoute from "@/app/api/mcp/route";
import * as otherRoute from "./[...path]/route";
import * as memoryRoute from "./memories/[id]/route";
import * as memoriesRoute from "./memories/route";
import * as openapiRoute from "./openapi.json/route";
import * as recallRoute from "./recall/route";

const { scout: SCOUT_KEY, echo: ECHO_KEY } = DEMO_KEYS;
const RATE_LIMIT = 5_000;
const BASE = "http://mnemo.test";

// The routes open the app's database from the environment, as in production.
const testDb = appDemoDbForFile({ rateLimit: RATE_LIMIT });

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Response | Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;

/** The route module that serves a path, and its params, as Next's router would pick them. */
function routeFor(pathname: string): { module: RouteModule; params: Record<string, string | string[]> } {
  const one = pathname.match(/^\/api\/v1\/memories\/([^/]+)$/);
  if (pathname === "/api/v1/recall") return { module: recallRoute as unknown as RouteModule, params: {} };
  if (pathname === "/api/v1/memories") return { module: memoriesRoute as unknown as RouteModule, params: {} };
  if (one) return { module: memoryRoute as unknown as RouteModule, params: { id: decodeURIComponent(one[1]) } };
  if (pathname === "/api/v1/openapi.json") return { module: openapiRoute as unknown as RouteModule, params: {} };
  if (pathname === "/api/mcp") return { module: mcpRoute as unknown as RouteModule, params: {} };
  if (pathname.startsWith("/api/v1/")) {
    return { module: otherRoute as unknown as RouteModule, params: { path: pathname.slice("/api/v1/".length).split("/") } };
  }
  throw new Error(`no route for ${pathname}`);
}

/** Sends a request to the route handler that serves its path, as Next would (405 for a method it does not export). */
async function send(method: string, path: string, headers: Record<string, string> = {}, body?: string | Uint8Array) {
  const request = new Request(`${BASE}${path}`, { method, headers, body: body as BodyInit | undefined });
  const { module, params } = routeFor(new URL(request.url).pathname);
  const handler = module[method];
  if (!handler) return new Response(null, { status: 405 });
  return handler(request, { params: Promise.resolve(params) });
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const asJson = (key: string) => ({ ...bearer(key), "content-type": "application/json" });

async function snapshot() {
  return {
    facts: await testDb().db.select().from(facts).orderBy(facts.seq),
    events: await testDb().db.select().from(factEvents).orderBy(factEvents.id),
  };
}

async function idOf(body: string): Promise<string> {
  const [row] = await testDb().db.select({ id: facts.id }).from(facts).where(eq(facts.body, body));
  return row.id;
}

async function newKey(agentId = "scout"): Promise<{ id: string; key: string }> {
  const key = generateAgentKey();
  const id = `key_test_${Math.random().toString(36).slice(2)}`;
  await testDb().db.insert(agentKeys).values({ id, agentId, name: `Test ${id}`, prefix: key.slice(0, 10), hash: hashAgentKey(key) });
  return { id, key };
}

describe("hostile and malformed requests", () => {
  it("each gets the right 4xx in the API's envelope, naming the field, and changes nothing", async () => {
    const table = hostileRequests({ key: SCOUT_KEY, channel: "general", asker: "ana", factId: await idOf("Releases go out on Thursdays.") });
    const before = await snapshot();
    const wrong: string[] = [];
    for (const request of table) {
      const response = await send(request.method, request.path, request.headers, request.body);
      const text = await response.text();
      const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
      const fits =
        response.status === request.status &&
        body.error?.code === request.code &&
        typeof body.error.message === "string" &&
        Object.keys(body).length === 1 &&
        Object.keys(body.error).sort().join() === "code,message" &&
        (!request.mentions || body.error.message.includes(request.mentions)) &&
        !/\bat .+:\d+:\d+|Error:|SQLITE|drizzle|libsql/i.test(text) &&
        response.headers.get("content-type")?.startsWith("application/json");
      if (!fits) wrong.push(`${request.name}: ${response.status} ${text.slice(0, 300)}`);
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it("401 says how to authenticate", async () => {
    const response = await send("GET", "/api/v1/recall?channel=general");
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("an unexpected failure is a 500 with a generic message; the detail stays in the log", async () => {
    const log = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const broken = { url: process.env.DATABASE_URL };
    try {
      // A database that cannot open: the file's folder is a file.
      process.env.DATABASE_URL = `file:${testDb().file}/nested/mnemo.db`;
      closeDb();
      const response = await send("GET", "/api/v1/recall?channel=general&asker=ana", bearer(SCOUT_KEY));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        error: { code: "internal_error", message: "Something went wrong on our side. Try again in a moment." },
      });
      const line = JSON.parse(String(log.mock.calls[0][0]));
      expect(line).toMatchObject({ level: "error", event: "api.unexpected_error" });
      expect(line.error).toMatch(/cannot|not a directory|ENOTDIR|EEXIST/i);
    } finally {
      process.env.DATABASE_URL = broken.url;
      // The next request opens the real file again.
      closeDb();
      log.mockRestore();
    }
  });
});

describe("REST: recall, remember, forget", () => {
  it("recall answers the place, the facts and the section, ignoring any claimed kind or people", async () => {
    const response = await send("GET", "/api/v1/recall?channel=general&asker=ana&kind=dm&people=ana", bearer(SCOUT_KEY));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body.place).toEqual({ channel_id: "general", kind: "public", people: ["ana"] });
    expect(body.facts.map((fact: { body: string }) => fact.body).sort()).toEqual(
      ["Releases go out on Thursdays.", "The Enterprise plan includes SSO."].sort(),
    );
    expect(body.section).toMatch(/^## What you remember\n/);
    // An empty asker is no asker: no one's person facts, in a public channel no people.
    const noAsker = await send("GET", "/api/v1/recall?channel=general&asker=", bearer(SCOUT_KEY));
    expect((await noAsker.json()).place).toEqual({ channel_id: "general", kind: "public", people: [] });
  });

  it("echo's key gets 404 for acme's channels", async () => {
    for (const channel of ["general", "dm-ana", "leadership"]) {
      const response = await send("GET", `/api/v1/recall?channel=${channel}&asker=gina`, bearer(ECHO_KEY));
      expect(response.status).toBe(404);
      expect((await response.json()).error.code).toBe("channel_not_found");
    }
  });

  it("remember answers 202 for a workspace fact that waits for an owner (by default), and 202 again for its repeat", async () => {
    const fact = { channel: "support", asker: "max", fact: "The returns desk opens at nine.", scope: "workspace" };
    const proposed = await send("POST", "/api/v1/memories", asJson(SCOUT_KEY), JSON.stringify(fact));
    expect(proposed.status).toBe(202);
    const body = await proposed.json();
    expect(body).toMatchObject({ proposed: true, proposal_reason: "setting", deduplicated: false });
    expect(body.memory).toMatchObject({ scope: "workspace", status: "proposed" });
    const again = await send("POST", "/api/v1/memories", asJson(SCOUT_KEY), JSON.stringify(fact));
    expect(again.status).toBe(202);
    expect(await again.json()).toMatchObject({ memory: { id: body.memory.id, status: "proposed" }, deduplicated: true });
    // Not recalled, so not the agent's to forget either.
    const gone = await send("DELETE", `/api/v1/memories/${body.memory.id}?channel=support&asker=ana`, bearer(SCOUT_KEY));
    expect(gone.status).toBe(404);
  });

  it("remember answers 201, then 200 for the same fact; forget answers 204 with no body, then 404", async () => {
    // Kept at once for this test only: the file shares one database.
    await keepAgentWrites(testDb().db);
    onTestFinished(async () => {
      await setWritePolicies(testDb().db, OPERATOR, "acme", "scout", { workspaceFacts: "wait", channelFacts: "keep" });
    });
    const fact = { channel: "support", asker: "max", fact: "The refund form is on the wiki.", scope: "workspace" };
    const created = await send("POST", "/api/v1/memories", asJson(SCOUT_KEY), JSON.stringify(fact));
    expect(created.status).toBe(201);
    const { memory, narrowed, deduplicated } = await created.json();
    expect({ narrowed, deduplicated }).toEqual({ narrowed: false, deduplicated: false });
    expect(memory).toMatchObject({ scope: "workspace", source_label: "@max in #support" });

    const again = await send("POST", "/api/v1/memories", asJson(SCOUT_KEY), JSON.stringify({ ...fact, fact: "the REFUND form is on the wiki" }));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ memory: { id: memory.id }, deduplicated: true });

    const path = `/api/v1/memories/${memory.id}?channel=leadership&asker=olivia`;
    expect((await send("DELETE", path, bearer(SCOUT_KEY))).status).toBe(403);
    const gone = await send("DELETE", `/api/v1/memories/${memory.id}?channel=support&asker=ana`, bearer(SCOUT_KEY));
    expect(gone.status).toBe(204);
    expect(await gone.text()).toBe("");
    const twice = await send("DELETE", `/api/v1/memories/${memory.id}?channel=support&asker=ana`, bearer(SCOUT_KEY));
    expect(twice.status).toBe(404);
    expect(await twice.json()).toEqual({ error: { code: "not_found", message: "There is no such fact you can forget here." } });
  });
});

describe("ranked recall: q, limit and budget, by GET or POST", () => {
  type Input = { channel: string; asker?: string; q?: string; limit?: number; budget?: number };
  const query = (input: Input) =>
    new URLSearchParams(Object.entries(input).map(([name, value]) => [name, String(value)])).toString();
  const viaGet = (input: Input, key = SCOUT_KEY) => send("GET", `/api/v1/recall?${query(input)}`, bearer(key));
  const viaPost = (input: Input, key = SCOUT_KEY) => send("POST", "/api/v1/recall", asJson(key), JSON.stringify(input));
  async function answer(input: Input, how = viaGet): Promise<RecallOutput> {
    const response = await how(input);
    const text = await response.text();
    expect(response.status, text).toBe(200);
    return JSON.parse(text) as RecallOutput;
  }
  const bodies = (output: RecallOutput) => output.facts.map((fact) => fact.body);

  it("GET and POST give the same answer for the same input, and different inputs different answers", async () => {
    const inputs: Input[] = [
      { channel: "support", asker: "ana", q: "refund approval" },
      { channel: "support", asker: "ana", q: "refund approval", limit: 2 },
      { channel: "dm-ana", asker: "ana", q: "What language should I answer in?", budget: 60 },
      { channel: "general", asker: "max" },
      { channel: "general", asker: "max", q: "é ünïcode, \"quotes\" & ampersands?\nand a newline" },
    ];
    const seen = new Set<string>();
    for (const input of inputs) {
      const got = await (await viaGet(input)).text();
      const posted = await (await viaPost(input)).text();
      expect(posted, JSON.stringify(input)).toBe(got);
      seen.add(got);
    }
    expect(seen.size).toBe(inputs.length);
    // A question of 2,000 characters is accepted either way.
    const long = { channel: "support", asker: "ana", q: `refund approval ${"x".repeat(1_984)}` };
    expect(long.q).toHaveLength(2_000);
    expect(await (await viaPost(long)).text()).toBe(await (await viaGet(long)).text());
  });

  it("refund approval in support, asked by ana: the pinned workspace fact, then the refunds rule, with receipts", async () => {
    const output = await answer({ channel: "support", asker: "ana", q: "refund approval" }, viaPost);
    expect(bodies(output).slice(0, 2)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.refunds]);
    expect(output.ranking).toMatch(/^question/);
    const [pinned, refunds] = output.facts;
    expect(pinned.why).toMatchObject({ pinned: true, rank: 1 });
    expect(refunds.why).toMatchObject({ pinned: false, rank: 2 });
    expect(refunds.why.score).toBeGreaterThan(0);
    expect(refunds.why.matched.length).toBeGreaterThan(0);
    expect(output.facts.map((fact) => fact.why.rank)).toEqual(output.facts.map((_, i) => i + 1));
    expect(output.considered).toBe(output.facts.length + output.omitted);
    expect(output.tokens).toBeGreaterThan(0);
  });

  it("without q the order is recency, with no scores; limit 1 keeps the pinned fact and counts the rest as omitted", async () => {
    const all = await answer({ channel: "support", asker: "ana" });
    expect(all.ranking).toBe("recency");
    expect(all.facts[0].body).toBe(DEMO_FACTS.releases);
    for (const fact of all.facts) expect(fact.why).toMatchObject({ score: null, matched: [] });
    expect(all.omitted).toBe(0);

    const one = await answer({ channel: "support", asker: "ana", q: "refund approval", limit: 1 });
    expect(bodies(one)).toEqual([DEMO_FACTS.releases]);
    expect(one.considered).toBe(all.considered);
    expect(one.omitted).toBe(all.considered - 1);
  });

  it("budget: the section fits, facts are dropped whole, and the count says how many", async () => {
    const full = await answer({ channel: "support", asker: "ana", q: "refund approval" });
    expect(full.facts.length).toBeGreaterThan(1);
    const fitted = await answer({ channel: "support", asker: "ana", q: "refund approval", budget: full.tokens - 1 });
    expect(fitted.tokens).toBeLessThanOrEqual(full.tokens - 1);
    expect(fitted.facts.length).toBeLessThan(full.facts.length);
    expect(fitted.omitted).toBe(fitted.considered - fitted.facts.length);
    // Whole facts only, in the order of the unfitted answer.
    expect(bodies(full).slice(0, fitted.facts.length)).toEqual(bodies(fitted));
    for (const body of bodies(fitted)) expect(fitted.section).toContain(body);
  });

  it("a question never reaches past the place: leadership's fact stays in leadership", async () => {
    const q = "When does the Q3 budget freeze lift?";
    for (const [channel, asker] of [["general", "max"], ["support", "max"], ["dm-max", "max"], ["group-max-ana", "max"]]) {
      expect(bodies(await answer({ channel, asker, q })), channel).not.toContain(DEMO_FACTS.budget);
    }
    expect(bodies(await answer({ channel: "leadership", asker: "max", q }))).toContain(DEMO_FACTS.budget);
    // Another workspace's agent gets nothing of acme's, asked anything.
    const globex = await answer({ channel: "lobby", asker: "gina", q: "refund approval budget releases" }, (input) => viaGet(input, ECHO_KEY));
    expect(bodies(globex)).toEqual([DEMO_FACTS.globex]);
  });
});

describe("keys", () => {
  it("a revoked key stops working at once", async () => {
    const { id, key } = await newKey();
    expect((await send("GET", "/api/v1/recall?channel=general", bearer(key))).status).toBe(200);
    await testDb().db.update(agentKeys).set({ revokedAt: new Date().toISOString() }).where(eq(agentKeys.id, id));
    const response = await send("GET", "/api/v1/recall?channel=general", bearer(key));
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
  });

  it("records when a key was last used, at most once a minute", async () => {
    const { id, key } = await newKey();
    const lastUsed = async () => (await testDb().db.select().from(agentKeys).where(eq(agentKeys.id, id)))[0].lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await send("GET", "/api/v1/recall?channel=general", bearer(key));
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await send("GET", "/api/v1/recall?channel=general", bearer(key));
    expect(await lastUsed()).toBe(first);
    const longAgo = new Date(Date.now() - 5 * 60_000).toISOString();
    await testDb().db.update(agentKeys).set({ lastUsedAt: longAgo }).where(eq(agentKeys.id, id));
    await send("GET", "/api/v1/recall?channel=general", bearer(key));
    expect((await lastUsed())! > longAgo).toBe(true);
  });

  it("too many requests with one key get 429 with Retry-After; other keys go on", async () => {
    const { id, key } = await newKey();
    const now = Date.now();
    // Stay clear of a window's end, where the count would start again mid-test.
    if (now % RATE_WINDOW_MS > RATE_WINDOW_MS - 2_000) await new Promise((resolve) => setTimeout(resolve, 2_500));
    const windowStart = Date.now() - (Date.now() % RATE_WINDOW_MS);
    await testDb().db.insert(apiRateLimits).values({ keyId: id, windowStart, count: RATE_LIMIT - 1 });
    expect((await send("GET", "/api/v1/recall?channel=general", bearer(key))).status).toBe(200);
    const limited = await send("GET", "/api/v1/recall?channel=general", bearer(key));
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await limited.json()).error.code).toBe("rate_limited");
    // Every transport counts against the same key.
    expect((await send("POST", "/api/mcp", { ...asJson(key), accept: "application/json, text/event-stream" }, "{}")).status).toBe(429);
    expect((await send("GET", "/api/v1/recall?channel=general", bearer(SCOUT_KEY))).status).toBe(200);
  });
});

describe("OpenAPI", () => {
  it("describes the three operations with schemas generated from the validators", async () => {
    const response = await send("GET", "/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const doc = await response.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/api/v1/recall"].get.operationId).toBe("recall");
    expect(doc.paths["/api/v1/memories"].post.operationId).toBe("remember");
    // A proposal's answer is documented with the same body: proposed, proposal_reason and the memory's status.
    expect(Object.keys(doc.paths["/api/v1/memories"].post.responses)).toEqual(expect.arrayContaining(["200", "201", "202"]));
    expect(doc.components.schemas.RememberResponse.required).toEqual(expect.arrayContaining(["proposed", "proposal_reason"]));
    expect(doc.components.schemas.Memory.properties.status.enum).toEqual(["live", "proposed"]);
    expect(doc.paths["/api/v1/memories/{id}"].delete.operationId).toBe("forget");
    const { $schema, ...generated } = z.toJSONSchema(rememberInput, { io: "input" });
    expect($schema).toBeDefined();
    expect(doc.components.schemas.RememberRequest).toEqual(generated);
    expect(doc.components.schemas.Memory.required).toEqual([
      "id", "agent_id", "scope", "scope_ref", "scope_label", "body", "source_kind", "source_ref",
      "source_label", "source_channel_id", "created_by", "created_by_kind", "pinned", "status", "valid_until", "created_at",
      "updated_at",
    ]);
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toContain("memory_full");
    const recallParams = doc.paths["/api/v1/recall"].get.parameters.map((p: { name: string; required: boolean }) => [p.name, p.required]);
    expect(recallParams).toEqual([["channel", true], ["asker", false], ["q", false], ["limit", false], ["budget", false]]);
    const limit = doc.paths["/api/v1/recall"].get.parameters.find((p: { name: string }) => p.name === "limit");
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 40 });
    // POST takes the same fields as a body, and only those.
    const post = doc.paths["/api/v1/recall"].post;
    expect(post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/RecallRequest" });
    const recallRequest: Record<string, unknown> = z.toJSONSchema(recallBody, { io: "input" });
    delete recallRequest.$schema;
    expect(doc.components.schemas.RecallRequest).toEqual(recallRequest);
    expect(doc.components.schemas.RecallRequest.additionalProperties).toBe(false);
    expect(post.responses["200"]).toEqual(doc.paths["/api/v1/recall"].get.responses["200"]);
    // The answer carries its receipts.
    const recallResponse = doc.components.schemas.RecallResponse;
    expect(recallResponse.required).toEqual(expect.arrayContaining(["facts", "section", "ranking", "considered", "omitted", "tokens"]));
    expect(recallResponse.properties.ranking.enum).toEqual(["question", "question (words only)", "recency"]);
    expect(doc.components.schemas.RecalledMemory.properties.why.required).toEqual(["pinned", "rank", "score", "matched"]);
  });
});

describe("MCP", () => {
  /** The SDK's client, talking to the route handler in process. */
  async function connectClient(key: string | null): Promise<Client> {
    const client = new Client({ name: "test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/api/mcp`), {
      requestInit: key ? { headers: bearer(key) } : {},
      fetch: async (url, init) => send(init?.method ?? "GET", new URL(String(url)).pathname, Object.fromEntries(new Headers(init?.headers).entries()), init?.body as string | undefined),
    });
    await client.connect(transport);
    return client;
  }

  it("recall takes the question as `query`, ranks by it and honours `limit`, as REST does with `q`", async () => {
    const client = await connectClient(SCOUT_KEY);
    const { tools } = await client.listTools();
    const recall = tools.find((tool) => tool.name === "recall")!;
    expect(Object.keys(recall.inputSchema.properties ?? {}).sort()).toEqual(["asker", "budget", "channel", "limit", "query"]);
    expect(recall.description).toMatch(/`query`/);
    expect(JSON.stringify(recall.inputSchema.properties?.query)).toMatch(/question/);

    const args = { channel: "support", asker: "ana", query: "refund approval", limit: 2 };
    const ranked = await client.callTool({ name: "recall", arguments: args });
    expect(ranked.isError).toBeFalsy();
    const output = ranked.structuredContent as RecallOutput;
    expect(output.facts.map((fact) => fact.body)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.refunds]);
    expect(output.ranking).toMatch(/^question/);
    const rest = await send("GET", "/api/v1/recall?channel=support&asker=ana&q=refund+approval&limit=2", bearer(SCOUT_KEY));
    expect(output).toEqual(await rest.json());

    const bad = await client.callTool({ name: "recall", arguments: { ...args, limit: 41 } });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/limit/);
    await client.close();
  });

  it("lists recall, remember and forget, with the API's input schemas and a warning about secrets", async () => {
    const client = await connectClient(SCOUT_KEY);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["forget", "recall", "remember"]);
    const remember = tools.find((tool) => tool.name === "remember")!;
    expect(remember.description).toMatch(/never keep secrets/i);
    expect(Object.keys(remember.inputSchema.properties ?? {}).sort()).toEqual(
      ["asker", "channel", "fact", "private", "replaces", "scope", "source", "valid_until"].sort(),
    );
    // Told when to use it, and the day's shape, in words a model reads.
    expect(remember.description).toMatch(/valid_until/);
    expect(remember.inputSchema.properties?.valid_until).toMatchObject({ type: "string", format: "date" });
    const past = await client.callTool({ name: "remember", arguments: { channel: "general", fact: "Sale ends.", valid_until: "2001-01-01" } });
    expect(past.isError).toBe(true);
    // The SDK checks tool input against the schema itself, and says which field and why.
    expect((past.content as { text: string }[])[0].text).toMatch(/must be today or later \(UTC\) at valid_until/);
    await client.close();
  });

  it("calls each tool with the REST rules", async () => {
    const client = await connectClient(SCOUT_KEY);
    const recalled = await client.callTool({ name: "recall", arguments: { channel: "dm-ana", asker: "ana" } });
    expect(recalled.isError).toBeFalsy();
    const facts = (recalled.structuredContent as { facts: { body: string }[] }).facts.map((fact) => fact.body);
    expect(facts.sort()).toEqual(["Ana prefers replies in Portuguese.", "Releases go out on Thursdays.", "The Enterprise plan includes SSO."].sort());

    const kept = await client.callTool({ name: "remember", arguments: { channel: "dm-ana", asker: "ana", fact: "Ana likes tea.", scope: "workspace" } });
    const { memory, narrowed } = kept.structuredContent as { memory: { id: string; scope: string }; narrowed: boolean };
    expect([memory.scope, narrowed]).toEqual(["person", true]);

    const secret = await client.callTool({ name: "remember", arguments: { channel: "dm-ana", asker: "ana", fact: "token=abcd1234efgh" } });
    expect(secret.isError).toBe(true);
    expect(JSON.parse((secret.content as { text: string }[])[0].text).error.code).toBe("looks_like_secret");

    const pinned = await client.callTool({ name: "forget", arguments: { id: await idOf("Releases go out on Thursdays."), channel: "general" } });
    expect(JSON.parse((pinned.content as { text: string }[])[0].text).error.code).toBe("forbidden");

    const forgotten = await client.callTool({ name: "forget", arguments: { id: memory.id, channel: "dm-ana", asker: "ana" } });
    expect(forgotten.structuredContent).toEqual({ forgotten: true, id: memory.id });
    await client.close();
  });

  it("remember lists look-alikes as `similar` over REST (in the document too) and says \"This looks like\" with their ids over MCP", async () => {
    const refunds = await idOf(DEMO_FACTS.refunds);
    const fact = "Refunds over $650 need a manager's approval.";
    const rest = await send("POST", "/api/v1/memories", asJson(SCOUT_KEY), JSON.stringify({ channel: "support", fact }));
    expect(rest.status).toBe(201);
    const answer = await rest.json();
    expect(answer.similar).toEqual([{ id: refunds, body: DEMO_FACTS.refunds, score: expect.any(Number) }]);
    const unrelated = await send("POST", "/api/v1/memories", asJson(SCOUT_KEY), JSON.stringify({ channel: "support", fact: "The support rota is pinned in #support." }));
    expect((await unrelated.json()).similar).toEqual([]);
    const doc = await (await send("GET", "/api/v1/openapi.json")).json();
    expect(doc.components.schemas.RememberResponse.required).toContain("similar");

    const client = await connectClient(SCOUT_KEY);
    const kept = await client.callTool({ name: "remember", arguments: { channel: "support", fact: "Refunds over $700 need a manager's approval." } });
    const words = (kept.content as { text: string }[]).map((part) => part.text);
    expect(words.at(-1)).toContain(`This looks like: ${refunds} ("${DEMO_FACTS.refunds}")`);
    expect(words.at(-1)).toContain(`${answer.memory.id} ("${fact}")`);
    const other = await client.callTool({ name: "remember", arguments: { channel: "support", fact: "Support hours end at six." } });
    expect(JSON.stringify(other.content)).not.toMatch(/looks like/i);
    await client.close();
  });

  it("refuses a request without a valid key before MCP sees it", async () => {
    await expect(connectClient(null)).rejects.toThrow();
    const response = await send("POST", "/api/mcp", { "content-type": "application/json", accept: "application/json, text/event-stream" }, "{}");
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
    expect((await send("GET", "/api/mcp", bearer(SCOUT_KEY))).status).toBe(405);
  });
});

describe("logs", () => {
  it("one JSON line per request: request id, route, status, duration and the agent — never the fact", async () => {
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = "info";
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const fact = `Logs must never hold this sentence ${Date.now()}.`;
    let response: Response;
    let lines: string[];
    try {
      response = await send(
        "POST",
        "/api/v1/memories",
        { ...bearer(SCOUT_KEY), "content-type": "application/json", "x-request-id": "trace-123" },
        JSON.stringify({ channel: "dm-ana", asker: "ana", fact }),
      );
      lines = out.mock.calls.map((call) => String(call[0]));
    } finally {
      out.mockRestore();
      process.env.LOG_LEVEL = level;
    }
    expect(response.status).toBe(201);
    expect(response.headers.get("x-request-id")).toBe("trace-123");
    const entry = lines.map((line) => JSON.parse(line)).find((line) => line.event === "api.request");
    expect(entry).toMatchObject({
      level: "info",
      requestId: "trace-123",
      method: "POST",
      route: "/api/v1/memories",
      status: 201,
      agentId: "scout",
    });
    expect(typeof entry.ms).toBe("number");
    expect(lines.join("")).not.toContain("never hold this sentence");
    expect(lines.join("")).not.toContain(SCOUT_KEY);
  });
});
