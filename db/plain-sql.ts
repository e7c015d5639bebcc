/**
 * Statements written as plain SQL with `?` parameters: the form the data layer's
 * hot paths use, because a kept statement is found by its text.
 */
import type { ResultSet } from "@libsql/client";
import { sql, type SQL } from "drizzle-orm";
import { DrizzleQueryError } from "drizzle-orm/errors";

/** A value a query takes. */
export type SqlArg = string | number | null;

/** Plain SQL with `?` parameters (no `?` inside literals) as a Drizzle query, for a remote database or an open transaction. */
export function drizzleSql(text: string, args: readonly SqlArg[]): SQL {
  const pieces = text.split("?");
  const chunks: SQL[] = [sql.raw(pieces[0])];
  args.forEach((arg, i) => chunks.push(sql`${arg}`, sql.raw(pieces[i + 1])));
  return sql.join(chunks);
}

/** A piece of plain SQL — a condition, a subquery — with the values of its `?`, in order. */
export type SqlPart = { text: string; args: SqlArg[] };

/** Parts joined with AND, their values in the same order. */
export function allOf(parts: SqlPart[]): SqlPart {
  return { text: parts.map((part) => part.text).join(" AND "), args: parts.flatMap((part) => part.args) };
}

/**
 * Runs plain SQL through Drizzle (a remote database, or a transaction) and answers
 * as kept statements do: rows as plain objects keyed by column name — not Drizzle's
 * `all()`, which copies a row's enumerable keys, and the client's rows are
 * array-like, so a column named `length` never arrived — and failures as the
 * driver's own error, not wrapped in Drizzle's "Failed query" (issue #19).
 */
export async function runPlain<Row>(conn: { run(query: SQL): Promise<unknown> }, text: string, args: readonly SqlArg[]): Promise<Row[]> {
  let result: ResultSet;
  try {
    result = (await conn.run(drizzleSql(text, args))) as ResultSet;
  } catch (error) {
    throw error instanceof DrizzleQueryError && error.cause ? error.cause : error;
  }
  return rowObjects<Row>(result);
}

function rowObjects<Row>(result: ResultSet): Row[] {
  const { columns, rows } = result;
  return rows.map((row) => {
    const object: Record<string, unknown> = {};
    columns.forEach((column, i) => (object[column] = row[i]));
    return object as Row;
  });
}
