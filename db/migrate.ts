/**
 * Applies drizzle-kit's migrations from ./drizzle. Run on every start (idempotent);
 * `npm run db:migrate` runs it alone.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { migrate } from "drizzle-orm/libsql/migrator";
import { openDatabase, type Db } from "./client";
import { readConfig } from "../lib/config";

export const MIGRATIONS_FOLDER = path.resolve(import.meta.dirname, "../drizzle");

export async function migrateDatabase(db: Db): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const config = readConfig();
  const db = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  await migrateDatabase(db);
  console.log(`Migrations applied to ${config.DATABASE_URL}`);
  db.$client.close();
}
