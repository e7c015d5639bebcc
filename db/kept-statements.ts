/**
 * A connection of its own to a database file whose statements are prepared once
 * and kept: `@libsql/client` prepares every statement anew and copies each value
 * into a row object, which cost more than the hot reads and writes themselves.
 * Opened on first use, closed with the client.
 */
import Database from "libsql";
import type { SqlArg } from "./plain-sql";
import { busyRefusal } from "./lock-wait";
import { SECURE_DELETE_ON } from "./secure-delete";

/** How long a writer waits for another writer's lock before giving up (ms). */
export const BUSY_TIMEOUT_MS = 10_000;

/**
 * How many pages a write connection lets the WAL gather before its commit copies them
 * back into the file (SQLite's default: 1,000, about 4 MB). A remember dirties ~18
 * pages spread over the indexes of a million facts, and the next commits dirty many of
 * the same pages again; a larger WAL copies each such page back once per checkpoint
 * rather than once every few commits, and syncs the file a tenth as often. Remember on
 * the server at a million facts: +6 to +13 % in five pairs (+10 % on average), recall
 * with a question unchanged (BENCHMARKS.md, the sixteenth session). The cost: a WAL
 * file of about 40 MB, each checkpoint longer, and an erased fact's old page left in
 * the WAL longer when a delete cannot fold it (db/writer.ts foldWal).
 */
export const WAL_CHECKPOINT_PAGES = 10_000;

export type KeptStatements = {
  /** Runs a statement and returns its rows as objects keyed by column name. */
  all(text: string, args?: readonly SqlArg[]): unknown[];
  /**
   * Runs a statement and returns its first row only, or undefined: for a statement
   * that reads one row, a third of what `all` costs (the driver's row iterator is
   * most of a one-row read).
   */
  one(text: string, args?: readonly SqlArg[]): unknown;
  run(text: string, args?: readonly SqlArg[]): void;
  /**
   * BEGIN IMMEDIATE, failing at once with SQLITE_BUSY if another connection holds the
   * write lock instead of waiting in SQLite's busy handler (db/lock-wait.ts says why).
   */
  beginImmediateNow(): void;
  /**
   * Copies the WAL back into the file and empties it (a TRUNCATE checkpoint), failing
   * at once with SQLITE_BUSY, as beginImmediateNow does, while another connection's
   * reader or writer still holds the log.
   */
  truncateWalNow(): void;
  /** Whether a transaction is open on this connection. */
  inTransaction(): boolean;
  /** How many pages the WAL may gather before this connection's COMMIT checkpoints it (a write connection's). */
  checkpointAt(pages: number): void;
  close(): void;
};

/** `use` names what a call after close was for, in its error: "read" or "write". */
export function keptStatements(file: string, use: "read" | "write"): KeptStatements {
  let database: Database.Database | null = null;
  let closed = false;
  let checkpointPages = WAL_CHECKPOINT_PAGES;
  const statements = new Map<string, Database.Statement>();
  const readers = new Map<string, { statement: Database.Statement; row: RowMaker; names: readonly string[] | null }>();
  const open = () => {
    // Never reopened once closed: a statement still waiting fails rather than run on a connection nobody closes.
    if (closed) throw new Error(`The database was closed before this ${use} could run.`);
    if (!database) {
      database = new Database(file, { timeout: BUSY_TIMEOUT_MS });
      // Freed pages are zeroed, so a deleted fact leaves no bytes behind (secure-delete.ts).
      database.exec(SECURE_DELETE_ON);
      // Only a connection that commits checkpoints; the kept readers never do.
      if (use === "write") database.exec(`PRAGMA wal_autocheckpoint = ${checkpointPages}`);
    }
    return database;
  };
  const statement = (text: string) => {
    let kept = statements.get(text);
    if (!kept) statements.set(text, (kept = open().prepare(text)));
    return kept;
  };
  const reader = (text: string) => {
    let kept = readers.get(text);
    if (!kept) {
      const prepared = open().prepare(text);
      // A statement that returns no rows has no raw mode (and no columns): run as it is, its answer is [].
      const names = prepared.reader ? prepared.columns().map((column) => column.name) : null;
      kept = names
        ? { statement: prepared.raw(true), row: rowMaker(names), names }
        : { statement: prepared, row: (values) => values as unknown as Record<string, unknown>, names };
      readers.set(text, kept);
    }
    return kept;
  };
  /**
   * The row maker for what a kept statement answered, `width` values a row: SQLite
   * prepares a statement again after a schema change, and a `*` may then name other
   * columns than the kept names — the statement is then kept afresh, with its new ones.
   */
  const rowOf = (text: string, kept: ReturnType<typeof reader>, width: number): RowMaker => {
    if (!kept.names || width === kept.names.length) return kept.row;
    readers.delete(text);
    return reader(text).row;
  };
  /** Runs `work` with SQLite's busy handler off: what finds a lock taken fails or answers so at once. */
  const withoutWaiting = <T>(work: () => T): T => {
    statement("PRAGMA busy_timeout = 0").run();
    try {
      return work();
    } finally {
      statement(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`).run();
    }
  };
  // One array, never spread: a lone null argument spread reads as named parameters and fails.
  const positional = (args: readonly SqlArg[]) => args as SqlArg[];
  const one = (text: string, args: readonly SqlArg[] = []) => {
    const kept = reader(text);
    let row: unknown[] | undefined;
    try {
      row = kept.statement.get(positional(args)) as unknown[] | undefined;
    } catch (error) {
      // The driver's get() resets a statement only after it succeeds: one that failed would run its next call with
      // this call's arguments (another request's key, say). Dropped, the next call prepares it afresh.
      readers.delete(text);
      throw error;
    }
    return row && rowOf(text, kept, row.length)(row);
  };
  return {
    all: (text, args = []) => {
      const kept = reader(text);
      const rows = kept.statement.all(positional(args)) as unknown[][];
      return rows.length ? rows.map(rowOf(text, kept, rows[0].length)) : rows;
    },
    one,
    run: (text, args = []) => {
      statement(text).run(positional(args));
    },
    beginImmediateNow: () => withoutWaiting(() => statement("BEGIN IMMEDIATE").run()),
    truncateWalNow: () =>
      withoutWaiting(() => {
        // SQLite answers a checkpoint the log's holders kept from finishing with busy = 1, not an error.
        if ((one("PRAGMA wal_checkpoint(TRUNCATE)") as { busy: number }).busy !== 0) throw busyRefusal("the WAL is held by another connection");
      }),
    inTransaction: () => database?.inTransaction ?? false,
    checkpointAt: (pages) => {
      checkpointPages = Math.trunc(pages);
      database?.exec(`PRAGMA wal_autocheckpoint = ${checkpointPages}`);
    },
    close: () => {
      closed = true;
      statements.clear();
      readers.clear();
      database?.close();
      database = null;
    },
  };
}

export type RowMaker = (values: unknown[]) => Record<string, unknown>;

/**
 * Rows as objects keyed by column name, built here from the driver's arrays: the
 * driver's own objects cost about twice as much per row (a property set through N-API
 * per column), and recall reads rows of 23 columns. One object literal per statement,
 * so every row of it has one shape. The names are the statement's own columns, as
 * JSON string keys.
 */
export function rowMaker(names: readonly string[]): RowMaker {
  // A computed key for "__proto__": written plainly in a literal it would set the prototype.
  const key = (name: string) => (name === "__proto__" ? `[${JSON.stringify(name)}]` : JSON.stringify(name));
  return new Function("v", `return {${names.map((name, i) => `${key(name)}: v[${i}]`).join(", ")}};`) as RowMaker;
}
