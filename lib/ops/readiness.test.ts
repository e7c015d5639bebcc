import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import { EXPECTED_MIGRATIONS, readiness } from "./readiness";

let t: TempDb;
const dir = mkdtempSync(path.join(tmpdir(), "mnemo-ready-"));
beforeAll(async () => {
  t = await createTempDb();
});
afterAll(() => {
  t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("readiness", () => {
  it("is ready once every migration this build ships with is applied", async () => {
    expect(EXPECTED_MIGRATIONS).toBeGreaterThanOrEqual(4);
    expect(await readiness(t.db)).toEqual({ ok: true, migrations: EXPECTED_MIGRATIONS });
  });

  it("is not ready on a database never migrated, and says what to run", async () => {
    const empty = await openDatabase(`file:${path.join(dir, "empty.db")}`);
    expect(await readiness(empty)).toEqual({
      ok: false,
      reason: "The database has no migrations applied. Run `npm run db:migrate`.",
    });
    empty.$client.close();
  });

  it("is not ready when the newest migration is missing", async () => {
    await t.db.run(sql`DELETE FROM __drizzle_migrations WHERE rowid = (SELECT max(rowid) FROM __drizzle_migrations)`);
    const state = await readiness(t.db);
    expect(state).toEqual({
      ok: false,
      reason: `The database has ${EXPECTED_MIGRATIONS - 1} of ${EXPECTED_MIGRATIONS} migrations applied. Run \`npm run db:migrate\`.`,
    });
  });
});
