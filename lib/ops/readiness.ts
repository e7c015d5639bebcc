/**
 * Whether this server can do its work: the database answers and every migration
 * the code ships with has been applied. Used by GET /api/ready and `mnemo check`.
 */
import { sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import journal from "@/drizzle/meta/_journal.json";

export type Readiness = { ok: true; migrations: number } | { ok: false; reason: string };

/** How many migrations this build expects (drizzle-kit's journal, bundled at build time). */
export const EXPECTED_MIGRATIONS = journal.entries.length;

export async function readiness(db: Conn): Promise<Readiness> {
  let applied: number;
  try {
    const [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM __drizzle_migrations`);
    applied = Number(row?.n ?? 0);
  } catch (error) {
    const message = rootMessage(error);
    if (/no such table/i.test(message)) return { ok: false, reason: "The database has no migrations applied. Run `npm run db:migrate`." };
    return { ok: false, reason: `The database does not answer: ${message}` };
  }
  if (applied < EXPECTED_MIGRATIONS) {
    return {
      ok: false,
      reason: `The database has ${applied} of ${EXPECTED_MIGRATIONS} migrations applied. Run \`npm run db:migrate\`.`,
    };
  }
  return { ok: true, migrations: applied };
}

/** The driver's own message: Drizzle wraps it as the cause of a "Failed query" error. */
function rootMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message.split("\n")[0] : String(current);
}
