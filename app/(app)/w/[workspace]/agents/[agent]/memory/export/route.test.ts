/**
 * GET …/memory/export as a browser calls it, against a real temporary database
 * seeded with the demo. Only "who has the cookie" is a double.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "@/db/client";
import { seedDemo } from "@/db/seed";
import type { Who } from "@/lib/testing/signed-in";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import type { FactsFile } from "@/lib/validation/facts-file";

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

function get(workspace: string, agent: string): Promise<Response> {
  const url = `http://localhost/w/${workspace}/agents/${agent}/memory/export`;
  return GET(new Request(url), { params: Promise.resolve({ workspace, agent }) });
}

describe("GET /w/<workspace>/agents/<agent>/memory/export", () => {
  it("sends a member their visible facts as an attachment named after the agent and the day", async () => {
    signInAs("ana");
    const response = await get("acme", "scout");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="scout-memory-\d{4}-\d\d-\d\d\.json"$/);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const file = (await response.json()) as FactsFile;
    expect(file.facts.map((f) => f.body).sort()).toEqual(
      [
        "Ana prefers replies in Portuguese.",
        "Max and Ana are pairing on the billing migration.",
        "Refunds over $500 need a manager's approval.",
        "Releases go out on Thursdays.",
        "The Enterprise plan includes SSO.",
      ].sort(),
    );
    expect(file.facts.every((f) => f.history.length > 0)).toBe(true);
  });

  it.each<[string, Who, string, string]>([
    ["a non-member", "gina", "acme", "scout"],
    ["an agent of another workspace", "ana", "acme", "echo"],
    ["a workspace that does not exist", "ana", "nope", "scout"],
  ])("answers %s with the same 404 and no facts", async (_case, user, workspace, agent) => {
    signInAs(user);
    const response = await get(workspace, agent);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe("There is no such agent in a workspace of yours.\n");
  });

  it("sends a stale session to sign in, and back here after", async () => {
    signInAs(null);
    const response = await get("acme", "scout");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe(
      "http://localhost/signin?callbackUrl=%2Fw%2Facme%2Fagents%2Fscout%2Fmemory%2Fexport",
    );
  });
});
