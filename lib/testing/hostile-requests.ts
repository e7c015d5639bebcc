/**
 * Malformed and hostile requests to the agent API, each with the answer it must
 * get. Shared by the route tests (Vitest, in process) and the HTTP tests against
 * the production server (Playwright), so both hold the API to the same table.
 * None of them may change any data.
 */

export type HostileRequest = {
  name: string;
  method: "GET" | "POST" | "DELETE";
  /** Path and query, from the site's root. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  status: number;
  code: string;
  /** Words the error message must contain: the field at fault. */
  mentions?: string;
};

/** Where the requests aim: a key of an agent, a channel of its workspace, and a person who can read it. */
export type HostileTarget = { key: string; channel: string; asker: string; factId: string };

export function hostileRequests({ key, channel, asker, factId }: HostileTarget): HostileRequest[] {
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, "content-type": "application/json" };
  const post = (name: string, body: unknown, status: number, code: string, mentions?: string): HostileRequest => ({
    name,
    method: "POST",
    path: "/api/v1/memories",
    headers: json,
    body: typeof body === "string" ? body : JSON.stringify(body),
    status,
    code,
    mentions,
  });
  const ok = { channel, asker, fact: "A perfectly ordinary fact." };
  const q = encodeURIComponent;
  const recallGet = (name: string, query: string, mentions: string): HostileRequest => ({
    name,
    method: "GET",
    path: `/api/v1/recall?channel=${q(channel)}&asker=${q(asker)}&${query}`,
    headers: auth,
    status: 422,
    code: "invalid_request",
    mentions,
  });
  const recallPost = (name: string, body: unknown, status: number, code: string, mentions?: string): HostileRequest => ({
    ...post(name, body, status, code, mentions),
    path: "/api/v1/recall",
  });
  const asked = { channel, asker, q: "When do releases go out?" };

  return [
    // Malformed bodies: 400
    post("truncated JSON", '{"channel": "general", "fact": ', 400, "malformed_request"),
    post("not JSON at all", "channel=general&fact=hello", 400, "malformed_request"),
    post("an empty body", "", 400, "malformed_request"),
    {
      name: "invalid UTF-8",
      method: "POST",
      path: "/api/v1/memories",
      headers: json,
      body: new Uint8Array([0x7b, 0x22, 0x66, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      status: 400,
      code: "malformed_request",
    },
    // Not sent as JSON: 415, whatever the body holds
    { ...post("JSON sent as text/plain", ok, 415, "unsupported_media_type"), headers: { ...auth, "content-type": "text/plain" } },
    {
      ...post("a form", "channel=general&fact=hello", 415, "unsupported_media_type"),
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
    },
    { ...post("JSON with no content type", ok, 415, "unsupported_media_type"), headers: auth },
    // The wrong shape: 422, naming the field
    post("an array", [ok], 422, "invalid_request"),
    post("a bare string", '"remember this"', 422, "invalid_request"),
    post("null", "null", 422, "invalid_request"),
    post("no fact", { channel, asker }, 422, "invalid_request", "fact"),
    post("no channel", { asker, fact: "Orphan fact." }, 422, "invalid_request", "channel"),
    post("a number as the fact", { ...ok, fact: 42 }, 422, "invalid_request", "fact"),
    post("an object as the fact", { ...ok, fact: { toString: "x" } }, 422, "invalid_request", "fact"),
    post("an unknown scope", { ...ok, scope: "everyone" }, 422, "invalid_request", "scope"),
    post("scope in capitals", { ...ok, scope: "WORKSPACE" }, 422, "invalid_request", "scope"),
    post("private as a string", { ...ok, private: "yes" }, 422, "invalid_request", "private"),
    post("private without an asker", { channel, fact: "Only mine.", private: true }, 422, "invalid_request", "asker"),
    post("a claimed kind", { ...ok, kind: "dm" }, 422, "invalid_request", "kind"),
    post("claimed people", { ...ok, people: [asker] }, 422, "invalid_request", "people"),
    post("a prototype key", `{"channel":${JSON.stringify(channel)},"fact":"x","__proto__":{"admin":true}}`, 422, "invalid_request", "__proto__"),
    post("a person source", { ...ok, source: { kind: "person" } }, 422, "invalid_request", "source.kind"),
    post("an unknown source field", { ...ok, source: { kind: "message", pinned: true } }, 422, "invalid_request", "pinned"),
    post("an empty channel", { ...ok, channel: "" }, 422, "invalid_request", "channel"),
    post("a huge channel id", { ...ok, channel: "c".repeat(5_000) }, 422, "invalid_request", "channel"),
    post("a NUL byte in the channel", { ...ok, channel: `${channel}\u0000` }, 422, "invalid_request", "channel"),
    post("a NUL byte in the asker", { ...ok, asker: `${asker}\u0000x` }, 422, "invalid_request", "asker"),
    post("a nested channel", { ...ok, channel: { $ne: null } }, 422, "invalid_request", "channel"),
    post("valid_until in the past", { ...ok, valid_until: "2001-01-01" }, 422, "invalid_request", "valid_until: must be today or later"),
    post("valid_until too far ahead", { ...ok, valid_until: "2999-12-31" }, 422, "invalid_request", "valid_until: must be at most 5 years"),
    post("valid_until as a day-first date", { ...ok, valid_until: "31/12/2027" }, 422, "invalid_request", 'valid_until: must be a date, "YYYY-MM-DD".'),
    post("valid_until as a timestamp", { ...ok, valid_until: "2027-01-01T00:00:00Z" }, 422, "invalid_request", "valid_until"),
    post("valid_until on 30 February", { ...ok, valid_until: "2027-02-30" }, 422, "invalid_request", "valid_until"),
    post("valid_until as a number", { ...ok, valid_until: 20270101 }, 422, "invalid_request", "valid_until"),
    // Too large: 413
    post("a 20 KiB fact", { ...ok, fact: "x".repeat(20 * 1024) }, 413, "too_large"),
    post("a 17 KiB body of unicode", { ...ok, fact: "é".repeat(8_800) }, 413, "too_large"),
    // Well-formed, but nothing to keep: 422 from the rules
    post("only NUL bytes", { ...ok, fact: "\u0000\u0000\u0000" }, 422, "invalid_fact"),
    post("only whitespace", { ...ok, fact: " \n\t\u00a0 " }, 422, "invalid_fact"),
    post("an API key", { ...ok, fact: "Use sk-live-abcdefghijklmnopqrstuvwx1234 for billing." }, 422, "looks_like_secret"),
    post("a private key", { ...ok, fact: "-----BEGIN RSA PRIVATE KEY----- MIIEow" }, 422, "looks_like_secret"),
    // Places that do not exist, however they are spelled: 404, never an error
    post("SQL in the channel", { ...ok, channel: "general' OR '1'='1" }, 404, "channel_not_found"),
    post("SQL in the asker", { ...ok, asker: "x'); DROP TABLE facts; --" }, 404, "asker_not_member"),
    post("unicode in the channel", { ...ok, channel: "général-🚀" }, 404, "channel_not_found"),
    post("a right-to-left override in the channel", { ...ok, channel: "gen\u202eeral" }, 404, "channel_not_found"),
    // Queries
    {
      name: "recall without a channel",
      method: "GET",
      path: `/api/v1/recall?asker=${q(asker)}`,
      headers: auth,
      status: 422,
      code: "invalid_request",
      mentions: "channel",
    },
    {
      name: "recall with the channel twice",
      method: "GET",
      path: `/api/v1/recall?channel=${q(channel)}&channel=other&asker=${q(asker)}`,
      headers: auth,
      status: 422,
      code: "invalid_request",
      mentions: "channel",
    },
    {
      name: "recall with a NUL byte in the channel",
      method: "GET",
      path: `/api/v1/recall?channel=${q(channel)}%00&asker=${q(asker)}`,
      headers: auth,
      status: 422,
      code: "invalid_request",
      mentions: "channel",
    },
    {
      name: "recall with SQL in the channel",
      method: "GET",
      path: `/api/v1/recall?channel=${q("' UNION SELECT * FROM agent_keys --")}&asker=${q(asker)}`,
      headers: auth,
      status: 404,
      code: "channel_not_found",
    },
    // Recall's question, limit and budget: 422 naming the field, by query or by body
    recallGet("recall with limit 0", "limit=0", "limit"),
    recallGet("recall with limit 41", "limit=41", "limit"),
    recallGet("recall with a word as the limit", "limit=abc", "limit"),
    recallGet("recall with a fractional limit", "limit=2.5", "limit"),
    recallGet("recall with budget 0", "budget=0", "budget"),
    recallGet("recall with a negative budget", "budget=-5", "budget"),
    recallGet("recall with a question of 2,001 characters", `q=${"x".repeat(2_001)}`, "q"),
    recallGet("recall with the question twice", "q=refunds&q=releases", "q"),
    recallPost("recall by body with limit 0", { ...asked, limit: 0 }, 422, "invalid_request", "limit"),
    recallPost("recall by body with limit 41", { ...asked, limit: 41 }, 422, "invalid_request", "limit"),
    recallPost("recall by body with a word as the budget", { ...asked, budget: "lots" }, 422, "invalid_request", "budget"),
    recallPost("recall by body with a question of 2,001 characters", { ...asked, q: "x".repeat(2_001) }, 422, "invalid_request", "q"),
    recallPost("recall by body with a number as the question", { ...asked, q: 42 }, 422, "invalid_request", "q"),
    recallPost("recall by body with MCP's `query` for `q`", { channel, asker, query: "refunds" }, 422, "invalid_request", "query"),
    recallPost("recall by body with a claimed kind", { ...asked, kind: "dm" }, 422, "invalid_request", "kind"),
    recallPost("recall by body without a channel", { asker, q: "refunds" }, 422, "invalid_request", "channel"),
    recallPost("recall by body as an array", [asked], 422, "invalid_request"),
    recallPost("recall by body with truncated JSON", '{"channel": ', 400, "malformed_request"),
    { ...recallPost("recall by body as text/plain", asked, 415, "unsupported_media_type"), headers: { ...auth, "content-type": "text/plain" } },
    { ...recallPost("recall by body with no content type", asked, 415, "unsupported_media_type"), headers: auth },
    recallPost("recall by body of 20 KiB", { ...asked, q: "x".repeat(20 * 1024) }, 413, "too_large"),
    {
      name: "forget without a channel",
      method: "DELETE",
      path: `/api/v1/memories/${q(factId)}`,
      headers: auth,
      status: 422,
      code: "invalid_request",
      mentions: "channel",
    },
    {
      name: "forget with SQL as the id",
      method: "DELETE",
      path: `/api/v1/memories/${q("x' OR '1'='1")}?channel=${q(channel)}&asker=${q(asker)}`,
      headers: auth,
      status: 404,
      code: "not_found",
    },
    {
      name: "forget with a huge id",
      method: "DELETE",
      path: `/api/v1/memories/${"f".repeat(1_000)}?channel=${q(channel)}&asker=${q(asker)}`,
      headers: auth,
      status: 422,
      code: "invalid_request",
      mentions: "id",
    },
    // Calls that do not exist: the envelope, not an HTML page or an empty body
    { name: "GET on memories", method: "GET", path: "/api/v1/memories", headers: auth, status: 405, code: "method_not_allowed", mentions: "POST" },
    { name: "DELETE on recall", method: "DELETE", path: "/api/v1/recall", headers: auth, status: 405, code: "method_not_allowed", mentions: "POST" },
    { name: "an unknown call", method: "GET", path: "/api/v1/memories/x/history", headers: auth, status: 404, code: "not_found" },
    { name: "an unknown version", method: "POST", path: "/api/v1/remember", headers: json, body: "{}", status: 404, code: "not_found" },
    // Keys: 401, after the request itself is well-formed
    { ...post("no key", ok, 401, "unauthorized"), headers: { "content-type": "application/json" } },
    { ...post("a Basic credential", ok, 401, "unauthorized"), headers: { ...json, authorization: `Basic ${btoa(`scout:${key}`)}` } },
    { ...post("a malformed key", ok, 401, "unauthorized"), headers: { ...json, authorization: "Bearer mnemo_short" } },
    { ...post("an unknown key", ok, 401, "unauthorized"), headers: { ...json, authorization: `Bearer mnemo_${"z".repeat(43)}` } },
    { ...post("the key twice", ok, 401, "unauthorized"), headers: { ...json, authorization: `Bearer ${key} ${key}` } },
    {
      name: "recall with no key",
      method: "GET",
      path: `/api/v1/recall?channel=${q(channel)}&asker=${q(asker)}`,
      headers: {},
      status: 401,
      code: "unauthorized",
    },
    { ...recallPost("recall by body with no key", asked, 401, "unauthorized"), headers: { "content-type": "application/json" } },
    // Parse before key: a malformed request is 400 whatever its key, and a wrong field 422
    { ...post("malformed JSON and no key", "{", 400, "malformed_request"), headers: { "content-type": "application/json" } },
    { ...recallGet("recall with limit 0 and no key", "limit=0", "limit"), headers: {} },
  ];
}
