/**
 * Every API route answers each method the way its row in the table says: the
 * methods listed really answer (never 405), every other one is a 405 in the
 * envelope whose `Allow` is exactly the row, and OPTIONS says the same row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb } from "@/db";
import { allowHeader, ROUTABLE_METHODS } from "@/lib/http/allowed-methods";
import { API_ROUTE_MODULES, dispatch } from "@/lib/testing/route-dispatch";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";

let t: TempDb;
const savedUrl = process.env.DATABASE_URL;

beforeAll(async () => {
  t = await createTempDb();
  process.env.DATABASE_URL = t.url;
  closeDb();
});
afterAll(() => {
  closeDb();
  process.env.DATABASE_URL = savedUrl;
  t.close();
});

describe.each(Object.keys(API_ROUTE_MODULES))("%s", (path) => {
  const allow = allowHeader(path)!;
  const served = allow.split(", ");

  it.each(ROUTABLE_METHODS)("%s", async (method) => {
    const response = await dispatch(new Request(`http://mnemo.test${path}`, { method }));
    if (method === "OPTIONS") {
      expect(response.status).toBe(204);
      expect(response.headers.get("allow")).toBe(allow);
    } else if (served.includes(method)) {
      expect(response.status).not.toBe(405);
    } else {
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe(allow);
      if (method !== "HEAD") expect((await response.json()).error.code).toBe("method_not_allowed");
    }
  });
});

describe("an API path that does not exist", () => {
  it.each(ROUTABLE_METHODS)("%s is a 404, OPTIONS included", async (method) => {
    const response = await dispatch(new Request("http://mnemo.test/api/v1/memories/x/history", { method }));
    expect(response.status).toBe(404);
    expect(response.headers.get("allow")).toBeNull();
  });
});
