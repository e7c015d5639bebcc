/**
 * Where a piece of text still lives after it was erased (issue #16): in any row
 * of any table — FTS5's shadow tables and the word index included — in the
 * full-text index's vocabulary, or in any byte of the database file and its WAL
 * once the WAL is checkpointed. Tests of erasure assert it is found nowhere.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Db } from "@/db/client";

/** Folds the WAL into the file and empties it, so every byte there is is in the file (or nowhere). */
export async function checkpoint(db: Db): Promise<void> {
  const result = await db.$client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  const busy = Number(result.rows[0]?.[0] ?? 1);
  if (busy !== 0) throw new Error("The WAL checkpoint was blocked by a reader or writer: its bytes could not be checked.");
}

/** The files on disk (database, WAL) that hold `text` as UTF-8 bytes. */
export function filesHolding(file: string, text: string): string[] {
  const needle = Buffer.from(text, "utf8");
  return [file, `${file}-wal`].filter((name) => existsSync(name) && readFileSync(name).includes(needle));
}

/** "table: column" for every cell of every table (shadow tables too) whose value holds `text`. */
export async function tablesHolding(db: Db, text: string): Promise<string[]> {
  const needle = Buffer.from(text, "utf8");
  const tables = await db.$client.execute(
    // facts_fts reads its text from facts (external content): its own rows are in the shadow tables listed here.
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name",
  );
  const found: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await db.$client.execute(`SELECT * FROM "${String(name)}"`);
    for (const row of rows.rows) {
      rows.columns.forEach((column, i) => {
        const value = row[i];
        const bytes =
          value instanceof ArrayBuffer ? Buffer.from(value) : ArrayBuffer.isView(value) ? Buffer.from(value.buffer) : Buffer.from(String(value ?? ""), "utf8");
        if (bytes.includes(needle) && !found.includes(`${String(name)}: ${column}`)) found.push(`${String(name)}: ${column}`);
      });
    }
  }
  return found;
}

/**
 * Whether the full-text index still has `word` as a term (its vocabulary, read
 * through fts5vocab: FTS5 stores terms prefix-compressed, so bytes alone could miss one).
 */
export async function indexHasWord(db: Db, word: string): Promise<boolean> {
  // One batch: a temp table lives on the connection that made it.
  const [, result] = await db.$client.batch(
    [
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.facts_fts_words USING fts5vocab(main, facts_fts, 'row')",
      { sql: "SELECT count(*) AS n FROM temp.facts_fts_words WHERE term = ?", args: [word.toLowerCase()] },
    ],
    "deferred",
  );
  return Number(result.rows[0]?.n ?? 0) > 0;
}
