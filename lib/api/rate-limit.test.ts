import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, type Db } from "@/db/client";
import { agentKeys, agents, apiRateLimits, workspaces } from "@/db/schema";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import { FLUSH_INTERVAL_MS, RATE_WINDOW_MS, RateLimiter } from "./rate-limit";

let t: TempDb;
let other: Db;
let n = 0;
// A time well inside a window, so nothing here crosses into the next one by accident.
const T0 = 1_000 * RATE_WINDOW_MS + 1_000;

beforeAll(async () => {
  t = await createTempDb();
  other = connect(t.url);
  await t.db.insert(workspaces).values({ id: "ws", name: "W" });
  await t.db.insert(agents).values({ id: "agt", workspaceId: "ws", handle: "a", name: "A" });
});
afterAll(() => {
  other.$client.close();
  t.close();
});

async function newKey(): Promise<string> {
  const id = `key_${++n}`;
  await t.db.insert(agentKeys).values({ id, agentId: "agt", name: `k${n}`, prefix: "p", hash: `h${n}` }); // names unique per agent (agent_keys_live_name_idx)
  return id;
}

async function stored(keyId: string): Promise<number> {
  const [row] = await t.db.select().from(apiRateLimits).where(eq(apiRateLimits.keyId, keyId));
  return row?.count ?? 0;
}

describe("the rate limiter", () => {
  it("refuses past the limit with the seconds left in the window", async () => {
    const key = await newKey();
    const limiter = new RateLimiter();
    for (let i = 0; i < 5; i++) expect(await limiter.count(t.db, key, 5, T0)).toEqual({ allowed: true });
    expect(await limiter.count(t.db, key, 5, T0)).toEqual({ allowed: false, retryAfterSeconds: 59 });
  });

  it("writes a process's counts at most once per flush interval", async () => {
    const key = await newKey();
    const limiter = new RateLimiter();
    for (let i = 0; i < 100; i++) await limiter.count(t.db, key, 1_000, T0 + i);
    expect(await stored(key)).toBe(1);
    await limiter.count(t.db, key, 1_000, T0 + FLUSH_INTERVAL_MS);
    expect(await stored(key)).toBe(101);
  });

  it("holds across processes: each decides with the database total plus its own unwritten count", async () => {
    const key = await newKey();
    const a = new RateLimiter();
    const b = new RateLimiter();
    for (let i = 0; i < 8; i++) expect((await a.count(t.db, key, 10, T0)).allowed).toBe(true);
    // A writes its 8 plus this one; B's first request reads that total and adds its own.
    expect((await a.count(t.db, key, 10, T0 + FLUSH_INTERVAL_MS)).allowed).toBe(true);
    expect((await b.count(other, key, 10, T0 + FLUSH_INTERVAL_MS)).allowed).toBe(true);
    expect(await stored(key)).toBe(10);
    expect(await b.count(other, key, 10, T0 + FLUSH_INTERVAL_MS)).toMatchObject({ allowed: false });
    // A learns of B's request at its next write.
    expect(await a.count(t.db, key, 10, T0 + 2 * FLUSH_INTERVAL_MS)).toMatchObject({ allowed: false });
  });

  it("starts again in the next window", async () => {
    const key = await newKey();
    const limiter = new RateLimiter();
    await limiter.count(t.db, key, 1, T0);
    expect((await limiter.count(t.db, key, 1, T0)).allowed).toBe(false);
    expect((await limiter.count(t.db, key, 1, T0 + RATE_WINDOW_MS)).allowed).toBe(true);
    expect(await stored(key)).toBe(1);
  });

  it("writes the counts of every key in one flush", async () => {
    const [one, two] = [await newKey(), await newKey()];
    const limiter = new RateLimiter();
    await limiter.count(t.db, one, 100, T0);
    await limiter.count(t.db, one, 100, T0 + 1);
    await limiter.count(t.db, two, 100, T0 + 2);
    expect([await stored(one), await stored(two)]).toEqual([1, 0]);
    await limiter.count(t.db, one, 100, T0 + FLUSH_INTERVAL_MS);
    expect([await stored(one), await stored(two)]).toEqual([3, 1]);
  });

  it("drops the counts of a key deleted before they were written, and still writes the others'", async () => {
    const [gone, kept] = [await newKey(), await newKey()];
    const limiter = new RateLimiter();
    await limiter.count(t.db, kept, 100, T0);
    await limiter.count(t.db, gone, 100, T0 + 1);
    await limiter.count(t.db, kept, 100, T0 + 2);
    await t.db.delete(agentKeys).where(eq(agentKeys.id, gone));
    await limiter.count(t.db, kept, 100, T0 + FLUSH_INTERVAL_MS);
    expect([await stored(gone), await stored(kept)]).toEqual([0, 3]);
    await limiter.count(t.db, kept, 100, T0 + 2 * FLUSH_INTERVAL_MS);
    expect(await stored(kept)).toBe(4);
  });

  it("reads the database total of a key it has no fresh copy of before deciding, without writing", async () => {
    const [busy, quiet] = [await newKey(), await newKey()];
    const a = new RateLimiter();
    const b = new RateLimiter();
    await a.count(t.db, busy, 3, T0);
    await a.count(t.db, busy, 3, T0);
    expect((await a.count(t.db, busy, 3, T0 + FLUSH_INTERVAL_MS)).allowed).toBe(true);
    expect(await stored(busy)).toBe(3);
    await b.count(other, quiet, 3, T0 + FLUSH_INTERVAL_MS);
    // B's next flush is not due, so it reads A's total and refuses the fourth request.
    expect(await b.count(other, busy, 3, T0 + FLUSH_INTERVAL_MS + 50)).toMatchObject({ allowed: false });
    expect(await stored(busy)).toBe(3);
  });

  it("counts concurrent requests of a new key once each, with one write in flight", async () => {
    const key = await newKey();
    const limiter = new RateLimiter();
    const verdicts = await Promise.all(Array.from({ length: 6 }, () => limiter.count(t.db, key, 5, T0)));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(5);
    await limiter.count(t.db, key, 5, T0 + FLUSH_INTERVAL_MS);
    expect(await stored(key)).toBe(7);
  });
});
