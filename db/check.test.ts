/** The trigger check of `mnemo check`, on a real migrated file. */
import { describe, expect, it } from "vitest";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { checkTriggers } from "./check";

const t = tempDbForTests({ each: true });

describe("checkTriggers", () => {
  it("finds every trigger the migrations create: full-text search, recall's version counters, the vectors queue and new vectors, word postings, webhook deliveries and replace intents", async () => {
    const result = await checkTriggers(t.db.$client);
    expect(result).toEqual({ name: "triggers", ok: true, detail: "all 25 present" });
  });

  it("names a trigger that went missing, as a rebuilt table would lose it", async () => {
    await t.db.$client.execute("DROP TRIGGER channel_members_bump_places_version_after_delete");
    expect(await checkTriggers(t.db.$client)).toEqual({
      name: "triggers",
      ok: false,
      detail: "missing: channel_members_bump_places_version_after_delete",
    });
  });
});
