import { describe, expect, it } from "vitest";
import { count } from "drizzle-orm";
import { facts, users } from "./schema";
import { seedDemo } from "./seed";
import { tempDbForTests } from "@/lib/testing/temp-db";

const t = tempDbForTests();

describe("seedDemo", () => {
  it("seeds the demo into an empty database with the given keys", async () => {
    const scout = `mnemo_${"s".repeat(40)}`;
    const echo = `mnemo_${"e".repeat(40)}`;
    const keys = await seedDemo(t.db, { scout, echo });
    expect(keys).toEqual({ scout, echo, generated: false });
    const [people] = await t.db.select({ n: count() }).from(users);
    const [kept] = await t.db.select({ n: count() }).from(facts);
    expect(people.n).toBe(5);
    expect(kept.n).toBe(9);
  });

  it("never seeds over existing data", async () => {
    expect(await seedDemo(t.db)).toBeNull();
    const [kept] = await t.db.select({ n: count() }).from(facts);
    expect(kept.n).toBe(9);
  });
});
