/**
 * Applies drizzle-kit's migrations from ./drizzle. Run on every start (idempotent);
 * `npm run db:migrate` runs it alone.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { migrate } from "drizzle-orm/libsql/migrator";
import { openDatabase, type Db } from "./client";
import { readConfig } from "../lib/config";
import { factTerms } from "../lib/memory/terms";

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../drizzle");

export async function migrateDatabase(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  await fillFactTerms(db);
}

/** Facts filled per write: a short write at a time, so a large file never holds the lock long. */
const FILL_BATCH = 500;

/**
 * Facts older than `facts.terms` (drizzle/0015) get their terms, so ranked recall's
 * postings (made from them by triggers) cover every fact. Read off an index of the
 * facts still missing them: free once they are all filled. Forgotten facts too, so a
 * restored one is found by its words.
 */
export async function fillFactTerms(db: Db): Promise<number> {
  let filled = 0;
  for (;;) {
    const { rows } = await db.$client.execute({
      sql: "SELECT seq, body, scope_label, source_label FROM facts WHERE terms IS NULL LIMIT ?",
      args: [FILL_BATCH],
    });
    if (!rows.length) return filled;
    await db.$client.batch(
      rows.map((row) => ({
        sql: "UPDATE facts SET terms = ? WHERE seq = ? AND terms IS NULL",
        args: [factTerms(String(row.body), row.scope_label as string | null, row.source_label as string | null), row.seq],
      })),
      "write",
    );
    filled += rows.length;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const config = readConfig();
  const db = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  await migrateDatabase(db);
  console.log(`Migrations applied to ${config.DATABASE_URL}`);
  db.$client.close();
}
