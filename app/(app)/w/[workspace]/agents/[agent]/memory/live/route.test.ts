/**
 * GET …/memory/live as a browser opens it, against a real temporary database
 * seeded with the demo (only "who has the cookie" is a double): a member gets an
 * event stream that starts with its retry line, and hears "changed" at once when
 * the page's version is behind; anyone else gets a refusal and no stream.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { seedDemo } from "@/db/seed";
import { liveVersionOf } from "@/lib/live/memory-watcher";
import type { Who } from "@/lib/testing/signed-in";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";

const { signInAs } = await vi.hoisted(() => import("@/lib/testing/signed-in"));

let t: TempDb;
let appDb: Db;
let GET: (typeof import("./route"))["GET"];
const originalUrl = process.env.DATABASE_URL;

beforeAll(async () => {
  t = await createTempDb();
  await seedDemo(t.db);
  process.env.DATABASE_URL = t.url;
  ({ GET } = await import("./route"));
  appDb = (await import("@/db")).getDb();
});
afterAll(() => {
  appDb?.$client.close();
  t?.close();
  process.env.DATABASE_URL = originalUrl;
});

function get(workspace: string, agent: string, abort: AbortController, headers: Record<string, string> = {}): Promise<Response> {
  const url = `http://localhost/w/${workspace}/agents/${agent}/memory/live`;
  return GET(new Request(url, { headers, signal: abort.signal }), { params: Promise.resolve({ workspace, agent }) });
}

/** The stream's text until it holds `until`. */
async function readUntil(response: Response, until: string): Promise<string> {
  const reader = response.body!.getReader();
  const utf8 = new TextDecoder();
  let text = "";
  while (!text.includes(until)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    text += utf8.decode(chunk.value);
  }
  reader.releaseLock();
  return text;
}

describe("GET /w/<workspace>/agents/<agent>/memory/live", () => {
  it("streams events to a member, never kept by a cache, and says 'changed' at once to a page behind the version", async () => {
    signInAs("max");
    const abort = new AbortController();
    try {
      const response = await get("acme", "scout", abort, { "last-event-id": "0.0" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(response.headers.get("cache-control")).toBe("private, no-store, no-transform");
      const version = await liveVersionOf(appDb, "scout");
      // The watcher's first read (within its interval) finds the page behind.
      const text = await readUntil(response, "event: changed");
      expect(text).toMatch(/^retry: \d+\n/);
      expect(text).toContain(`id: ${version}\nevent: changed\ndata: changed\n\n`);
    } finally {
      abort.abort();
    }
  });

  it.each<[string, Who, string, string]>([
    ["a non-member", "gina", "acme", "scout"],
    ["an agent of another workspace", "ana", "acme", "echo"],
    ["a workspace that does not exist", "ana", "nope", "scout"],
  ])("answers %s with the same 404 and no stream", async (_case, user, workspace, agent) => {
    signInAs(user);
    const response = await get(workspace, agent, new AbortController());
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("There is no such agent in a workspace of yours.\n");
  });

  it("answers a signed-out browser with a 401, so EventSource stops retrying", async () => {
    signInAs(null);
    const response = await get("acme", "scout", new AbortController());
    expect(response.status).toBe(401);
  });
});
