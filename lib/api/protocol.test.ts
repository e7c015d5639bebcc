/**
 * Protocol hygiene of the agent API, through its route handlers on a real libSQL
 * file: MCP refuses pages of other origins and advertises only what it does, the
 * JSON API refuses bodies that are not JSON (415), and the OpenAPI document says
 * exactly what the server enforces.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { afterEach, describe, expect, it } from "vitest";
import { appDemoDbForFile, DEMO_KEYS } from "@/lib/testing/app-db";
import { dispatch } from "@/lib/testing/route-dispatch";

const SCOUT_KEY = DEMO_KEYS.scout;
const BASE = "http://localhost:3000";
const MCP_HEADERS = {
  authorization: `Bearer ${SCOUT_KEY}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "test", version: "1.0.0" } },
});

const savedAuthUrl = process.env.AUTH_URL;

appDemoDbForFile();
afterEach(() => {
  if (savedAuthUrl === undefined) delete process.env.AUTH_URL;
  else process.env.AUTH_URL = savedAuthUrl;
});

const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  dispatch(new Request(`${BASE}${path}`, { method, headers, body }));

describe("MCP", () => {
  it("refuses a request from another origin with 403 in the envelope, before looking at the key", async () => {
    process.env.AUTH_URL = "https://mnemo.example.com";
    for (const origin of ["https://evil.example", "http://mnemo.example.com", "null", "https://mnemo.example.com.evil.example"]) {
      const response = await send("POST", "/api/mcp", { ...MCP_HEADERS, origin }, INITIALIZE);
      expect(response.status, origin).toBe(403);
      expect((await response.json()).error.code).toBe("forbidden");
    }
    const noKey = await send("POST", "/api/mcp", { ...MCP_HEADERS, authorization: "", origin: "https://evil.example" }, INITIALIZE);
    expect(noKey.status).toBe(403);
  });

  it("accepts clients that send no Origin, and the site's own origin", async () => {
    process.env.AUTH_URL = "https://mnemo.example.com/";
    expect((await send("POST", "/api/mcp", MCP_HEADERS, INITIALIZE)).status).toBe(200);
    expect((await send("POST", "/api/mcp", { ...MCP_HEADERS, origin: "https://mnemo.example.com" }, INITIALIZE)).status).toBe(200);
    delete process.env.AUTH_URL;
    const unconfigured = await send("POST", "/api/mcp", { ...MCP_HEADERS, origin: BASE }, INITIALIZE);
    expect(unconfigured.status, "no public address configured: no page may call").toBe(403);
  });

  it("does not advertise tool-list changes it never sends", async () => {
    const response = await send("POST", "/api/mcp", MCP_HEADERS, INITIALIZE);
    const { result } = await response.json();
    expect(result.capabilities.tools).toBeDefined();
    expect(result.capabilities.tools.listChanged).toBeUndefined();
  });
});

describe("POST /api/v1/memories takes JSON only", () => {
  const body = JSON.stringify({ channel: "dm-ana", asker: "ana", fact: "Ana reads the changelog on Fridays." });
  const auth = { authorization: `Bearer ${SCOUT_KEY}` };

  it.each([
    ["text/plain", "text/plain"],
    ["a form", "application/x-www-form-urlencoded"],
    ["multipart", "multipart/form-data; boundary=x"],
    ["JSON in another charset", "application/json; charset=latin1"],
    ["a JSON look-alike", "application/jsonp"],
  ])("refuses %s with 415 in the envelope", async (_name, type) => {
    const response = await send("POST", "/api/v1/memories", { ...auth, "content-type": type }, body);
    expect(response.status).toBe(415);
    expect((await response.json()).error.code).toBe("unsupported_media_type");
  });

  it("refuses a body with no content type, and a refused body keeps nothing", async () => {
    const response = await dispatch(new Request(`${BASE}/api/v1/memories`, { method: "POST", headers: auth, body: new TextEncoder().encode(body) }));
    expect(response.status).toBe(415);
    const recall = await send("GET", "/api/v1/recall?channel=dm-ana&asker=ana", auth);
    expect(JSON.stringify(await recall.json())).not.toContain("changelog");
  });

  it("accepts application/json with or without a UTF-8 charset", async () => {
    for (const type of ["application/json", "Application/JSON; charset=UTF-8", 'application/json;charset="utf-8"']) {
      const response = await send("POST", "/api/v1/memories", { ...auth, "content-type": type }, body);
      expect([200, 201], type).toContain(response.status);
    }
  });
});

describe("POST /api/v1/recall takes JSON only", () => {
  const body = JSON.stringify({ channel: "dm-ana", asker: "ana", q: "What language should I answer in?" });
  const auth = { authorization: `Bearer ${SCOUT_KEY}` };

  it.each([
    ["text/plain", "text/plain"],
    ["a form", "application/x-www-form-urlencoded"],
    ["JSON in another charset", "application/json; charset=latin1"],
    ["no content type", undefined],
  ])("refuses %s with 415 in the envelope", async (_name, type) => {
    const response = await send("POST", "/api/v1/recall", type ? { ...auth, "content-type": type } : auth, body);
    expect(response.status).toBe(415);
    expect((await response.json()).error.code).toBe("unsupported_media_type");
  });

  it("accepts application/json with or without a UTF-8 charset", async () => {
    for (const type of ["application/json", "Application/JSON; charset=UTF-8"]) {
      const response = await send("POST", "/api/v1/recall", { ...auth, "content-type": type }, body);
      expect(response.status, type).toBe(200);
    }
  });
});

describe("the OpenAPI document says what the server enforces", () => {
  type Doc = {
    info: { license?: { name: string } };
    servers: { url: string }[];
    tags?: { name: string }[];
    paths: Record<string, Record<string, { tags?: string[]; responses: Record<string, unknown> }>>;
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  const documentNow = async () => (await (await send("GET", "/api/v1/openapi.json", {})).json()) as Doc;
  const validator = new AjvJsonSchemaValidator();
  /** A validator for one component, its references to others resolved inside the same schema (as $defs). */
  const componentValidator = (doc: Doc, name: string) =>
    validator.getValidator({
      $ref: `#/$defs/${name}`,
      $defs: JSON.parse(JSON.stringify(doc.components.schemas).replaceAll("#/components/schemas/", "#/$defs/")),
    });

  it("a body is valid by the document exactly when the server accepts it", async () => {
    const doc = await documentNow();
    const valid = validator.getValidator(doc.components.schemas.RememberRequest);
    const bodies = [
      { channel: "general", asker: "ana", fact: "The office closes at six." },
      { channel: "general", asker: "ana", fact: "" },
      { channel: "general", asker: "ana", fact: "   " },
      { channel: "general", asker: "ana", fact: "\n\t \u00a0" },
      { channel: "general", fact: "Only mine, says nobody.", private: true },
      { channel: "general", asker: "ana", fact: "Ana's own note.", private: true },
      { channel: "general", fact: "Not private, no asker.", private: false },
    ];
    for (const body of bodies) {
      const response = await send(
        "POST",
        "/api/v1/memories",
        { authorization: `Bearer ${SCOUT_KEY}`, "content-type": "application/json" },
        JSON.stringify(body),
      );
      const accepted = response.status === 200 || response.status === 201;
      expect(valid(body).valid, `${JSON.stringify(body)} answered ${response.status}`).toBe(accepted);
    }
  });

  it("a recall body is valid by the document exactly when the server accepts it", async () => {
    const doc = await documentNow();
    const valid = validator.getValidator(doc.components.schemas.RecallRequest);
    const bodies = [
      { channel: "general", asker: "ana" },
      { channel: "general", asker: "ana", q: "When do releases go out?", limit: 5, budget: 200 },
      { channel: "general", q: "", limit: 40, budget: 1 },
      { channel: "general", q: "x".repeat(2_000) },
      { channel: "general", q: "x".repeat(2_001) },
      { channel: "general", limit: 0 },
      { channel: "general", limit: 41 },
      { channel: "general", limit: 2.5 },
      { channel: "general", budget: 0 },
      { channel: "general", budget: 1_000_001 },
      { channel: "general", query: "releases" },
      { channel: "general", kind: "dm" },
      { channel: "" },
      { asker: "ana", q: "releases" },
    ];
    for (const body of bodies) {
      const response = await send(
        "POST",
        "/api/v1/recall",
        { authorization: `Bearer ${SCOUT_KEY}`, "content-type": "application/json" },
        JSON.stringify(body),
      );
      expect([200, 422], JSON.stringify(body)).toContain(response.status);
      expect(valid(body).valid, `${JSON.stringify(body)} answered ${response.status}`).toBe(response.status === 200);
    }
  });

  it("a recall answer, with a question, limit and budget, is valid by the document", async () => {
    const doc = await documentNow();
    const valid = componentValidator(doc, "RecallResponse");
    const query = "/api/v1/recall?channel=support&asker=ana&q=refund+approval&limit=3&budget=400";
    const answer = await (await send("GET", query, { authorization: `Bearer ${SCOUT_KEY}` })).json();
    expect(answer.facts.length).toBeGreaterThan(0);
    expect(valid(answer).valid, String(valid(answer).errorMessage)).toBe(true);
    expect(valid({ ...answer, ranking: "by magic" }).valid).toBe(false);
    expect(valid({ ...answer, facts: [{ ...answer.facts[0], why: undefined }] }).valid).toBe(false);
  });

  it("times are date-times, and what the server sends matches the document", async () => {
    const doc = await documentNow();
    const memory = doc.components.schemas.Memory as { properties: Record<string, { format?: string }> };
    expect(memory.properties.created_at.format).toBe("date-time");
    expect(memory.properties.updated_at.format).toBe("date-time");
    const recall = await (await send("GET", "/api/v1/recall?channel=general&asker=ana", { authorization: `Bearer ${SCOUT_KEY}` })).json();
    // Recall's facts are a Memory with its `why`.
    const validMemory = componentValidator(doc, "RecalledMemory");
    for (const fact of recall.facts) expect(validMemory(fact).valid, String(validMemory(fact).errorMessage)).toBe(true);
    expect(validMemory({ ...recall.facts[0], created_at: "last Tuesday" }).valid).toBe(false);
  });

  it("every operation lists the errors it can answer, with a license, tags and servers", async () => {
    process.env.AUTH_URL = "https://mnemo.example.com/";
    const doc = await documentNow();
    const expected: Record<string, string[]> = {
      "get /api/v1/recall": ["400", "401", "403", "404", "422", "429", "500"],
      "post /api/v1/recall": ["400", "401", "403", "404", "413", "415", "422", "429", "500"],
      "post /api/v1/memories": ["400", "401", "403", "404", "409", "413", "415", "422", "429", "500"],
      "delete /api/v1/memories/{id}": ["400", "401", "403", "404", "422", "429", "500"],
    };
    for (const [operation, statuses] of Object.entries(expected)) {
      const [method, path] = operation.split(" ");
      const { responses, tags } = doc.paths[path][method];
      expect(Object.keys(responses).filter((status) => status >= "400").sort(), operation).toEqual(statuses);
      expect(tags?.length, operation).toBeGreaterThan(0);
      for (const tag of tags ?? []) expect(doc.tags?.map(({ name }) => name)).toContain(tag);
    }
    expect(doc.info.license?.name).toEqual(expect.any(String));
    expect(doc.servers).toEqual([{ url: "https://mnemo.example.com" }]);
  });
});
