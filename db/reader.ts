/**
 * The one way the data layer reads with plain SQL. For a file, a connection of its
 * own whose statements are prepared once and kept (kept-statements.ts); in WAL mode
 * it sees every committed write. Reads only — writes go through writer.ts.
 */
import type { Client } from "@libsql/client";
import type { Conn, Db } from "./client";
import { keptStatements, rowMaker, type RowMaker } from "./kept-statements";
import { runPlain, type SqlArg } from "./plain-sql";

/** A kept statement's rows, or its first; a watcher over a remote database (watchReads) reads through Drizzle, asynchronously. */
type Reader = {
  all: (text: string, args: readonly SqlArg[]) => unknown[] | Promise<unknown[]>;
  one: (text: string, args: readonly SqlArg[]) => unknown;
};
// On globalThis, like the transaction queues: the bundler may make several copies of this module.
const readers = ((globalThis as { mnemoReaders?: WeakMap<Client, Reader> }).mnemoReaders ??= new WeakMap());

/** For a file: the read connection behind readAll and readOne, closed with the client. */
export function keepReader(client: Client, file: string): void {
  const kept = keptStatements(file, "read");
  readers.set(client, { all: kept.all, one: kept.one });
  const close = client.close.bind(client);
  client.close = () => {
    kept.close();
    close();
  };
}

/**
 * Runs a read written as plain SQL with `?` parameters (no `?` inside literals)
 * and returns its rows as objects keyed by column name: through the kept
 * statements when `db` is a file database, else — a remote database, or a
 * transaction, whose reads must see its own writes — through Drizzle.
 */
export async function readAll<Row>(db: Conn, text: string, args: readonly SqlArg[]): Promise<Row[]> {
  return readerOf(db).all(text, args) as Row[] | Promise<Row[]>;
}

/** readAll for a statement that reads one row (a key, a count, a fact by id): that row, or undefined. */
export async function readOne<Row>(db: Conn, text: string, args: readonly SqlArg[]): Promise<Row | undefined> {
  return readerOf(db).one(text, args) as Row | undefined | Promise<Row | undefined>;
}

/** Reads through Drizzle: what a database without a kept reader (remote, or a transaction) reads with. */
const throughDrizzle = (db: Conn): Reader => ({
  all: (text, args) => runPlain(db, text, args),
  one: async (text, args) => (await runPlain(db, text, args))[0],
});

function readerOf(db: Conn): Reader {
  const client = (db as Partial<Db>).$client;
  return (client && readers.get(client)) || throughDrizzle(db);
}

/** Per list of columns (callers pass one constant list each), the wrapped statement and row maker per text. */
const wideRows = new WeakMap<readonly string[], Map<string, { text: string; row: RowMaker }>>();

/**
 * readAll for rows read in bulk (a fact's two dozen columns, a branch's postings):
 * SQLite writes the rows as one JSON text (json_group_array of json_array) and it is
 * parsed in one go, where the driver would make a JavaScript value per column per row
 * — about 30 % less time in reading fact rows, and 35 % in reading postings, at a
 * million facts, where most are read afresh.
 * `columns` are the statement's result columns, in order. Only for columns of text,
 * integers (up to 2^53) and NULL: JSON has no blob, and a real 1.0 comes back as 1.
 * Rows keep the statement's order as SQLite gives it.
 */
export async function readWide<Row>(db: Conn, columns: readonly string[], text: string, args: readonly SqlArg[]): Promise<Row[]> {
  let byText = wideRows.get(columns);
  if (!byText) wideRows.set(columns, (byText = new Map()));
  let wide = byText.get(text);
  if (!wide) {
    const names = columns.map((name) => `"${name.replaceAll('"', '""')}"`).join(", ");
    wide = { text: `SELECT json_group_array(json_array(${names})) AS rows FROM (${text})`, row: rowMaker(columns) };
    byText.set(text, wide);
  }
  // json_group_array makes exactly one row, even of no rows ('[]').
  const packed = await readOne<{ rows: string }>(db, wide.text, args);
  return (JSON.parse(packed!.rows) as unknown[][]).map(wide.row) as Row[];
}

/**
 * Calls `onRead` with each statement readAll or readOne runs on this database, before
 * it runs (bench/plan.ts explains them, tests count them), until the returned function
 * is called. Over a remote database, where they have no reader of their own, the watch
 * reads as they would: through Drizzle.
 */
export function watchReads(db: Db, onRead: (text: string, args: readonly SqlArg[]) => void): () => void {
  const kept = readers.get(db.$client);
  const inner = kept ?? throughDrizzle(db);
  readers.set(db.$client, {
    all: (text, args) => {
      onRead(text, args);
      return inner.all(text, args);
    },
    one: (text, args) => {
      onRead(text, args);
      return inner.one(text, args);
    },
  });
  return () => (kept ? readers.set(db.$client, kept) : readers.delete(db.$client));
}
