/**
 * The one way to open Mnemo's database. An embedded file by default; the same code
 * talks to a libSQL server or Turso when DATABASE_URL says so.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { createClient, type Client, type Transaction, type TransactionMode } from "@libsql/client";
import { sql, type SQL } from "drizzle-orm";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import Database from "libsql";
import type { ResultSet } from "@libsql/client";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };
/** The database or an open transaction on it: what the data layer's functions take. */
export type Conn = BaseSQLiteDatabase<"async", ResultSet, typeof schema>;

/** How long a writer waits for another writer's lock before giving up (ms). */
const BUSY_TIMEOUT_MS = 10_000;

export class DatabaseOpenError extends Error {
  constructor(where: string, reason: string) {
    super(`Cannot open the database at ${where}: ${reason}`);
    this.name = "DatabaseOpenError";
  }
}

/** The file path of a `file:` URL, or null for a remote database. */
export function filePathOf(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  return path.resolve(url.slice("file:".length).replace(/^\/\/(?=\/)/, ""));
}

/**
 * Creates a folder and its missing parents one level at a time. (Node's own
 * recursive mkdir spins forever where the kernel answers ENOENT for a parent that
 * exists, as under /proc; this fails with a clear error instead.)
 */
export function ensureFolder(dir: string): void {
  if (existsSync(dir)) return;
  const parent = path.dirname(dir);
  if (parent !== dir) ensureFolder(parent);
  mkdirSync(dir);
}

/** The database holds password hashes: only its owner may read it (and its -wal and -shm, which SQLite makes alike). */
export const DATABASE_FILE_MODE = 0o600;

/**
 * Creates an empty database file readable by its owner only, unless it exists:
 * SQLite would create it with the process's umask (usually 0644), and an empty
 * file is a valid empty database.
 */
export function createPrivateFile(file: string): void {
  try {
    closeSync(openSync(file, "wx", DATABASE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}

/** A client and its Drizzle wrapper, without touching the database yet. For a file, creates its folder and the file first (libSQL would make it readable by all). */
export function connect(url: string, authToken?: string): Db {
  const file = filePathOf(url);
  if (file) {
    ensureFolder(path.dirname(file));
    createPrivateFile(file);
  }
  const client = createClient({ url, authToken, timeout: BUSY_TIMEOUT_MS });
  if (file) {
    takeTurnsForTransactions(client, file);
    keepReader(client, file);
    keepWriter(client, file);
  }
  return drizzle(client, { schema }) as Db;
}

/** A value a query takes. */
export type SqlArg = string | number | null;

/**
 * A statement's arguments as the `libsql` driver takes them: one array. Spread,
 * a lone argument that is null reads as named parameters and fails.
 */
function positional(args: readonly SqlArg[]): SqlArg[] {
  return args as SqlArg[];
}

type Reader = { all: (text: string, args: readonly SqlArg[]) => unknown[] };
// On globalThis, like the transaction queues below: the bundler may make several copies of this module.
const readers = ((globalThis as { mnemoReaders?: WeakMap<Client, Reader> }).mnemoReaders ??= new WeakMap());

/**
 * For a file, a connection of its own for the hot reads, whose statements are
 * prepared once and kept: the client prepares every statement anew and copies
 * each value into a row object, which cost more than the reads themselves.
 * Opened on first use, closed with the client. Reads only — writes go through
 * the client's transactions — and, in WAL mode, it sees every committed write.
 */
function keepReader(client: Client, file: string): void {
  let database: Database.Database | null = null;
  const statements = new Map<string, Database.Statement>();
  readers.set(client, {
    all(text, args) {
      database ??= new Database(file, { timeout: BUSY_TIMEOUT_MS });
      let statement = statements.get(text);
      if (!statement) statements.set(text, (statement = database.prepare(text)));
      return statement.all(positional(args));
    },
  });
  const close = client.close.bind(client);
  client.close = () => {
    statements.clear();
    database?.close();
    database = null;
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
  const client = (db as Partial<Db>).$client;
  const reader = client && readers.get(client);
  if (reader) return reader.all(text, args) as Row[];
  return db.all<Row>(drizzleSql(text, args));
}

/** Plain SQL with `?` parameters as a Drizzle query. */
function drizzleSql(text: string, args: readonly SqlArg[]): SQL {
  const pieces = text.split("?");
  const chunks: SQL[] = [sql.raw(pieces[0])];
  args.forEach((arg, i) => chunks.push(sql`${arg}`, sql.raw(pieces[i + 1])));
  return sql.join(chunks);
}

/** A write transaction's statements: plain SQL with `?` parameters (no `?` inside literals). */
export type Writes = {
  /** Runs a statement and returns its rows (a SELECT, or a write with RETURNING) as objects keyed by column name. */
  all<Row>(text: string, args: readonly SqlArg[]): Promise<Row[]>;
  run(text: string, args: readonly SqlArg[]): Promise<void>;
};

type Writer = <T>(work: (writes: Writes) => Promise<T>) => Promise<T>;
const writers = ((globalThis as { mnemoWriters?: WeakMap<Client, Writer> }).mnemoWriters ??= new WeakMap());

/** The statements of an open Drizzle transaction, as Writes. */
export function writesIn(tx: Conn): Writes {
  return {
    all: <Row>(text: string, args: readonly SqlArg[]) => tx.all<Row>(drizzleSql(text, args)),
    run: async (text, args) => {
      await tx.run(drizzleSql(text, args));
    },
  };
}

/**
 * Runs `work` all or nothing inside a write transaction (BEGIN IMMEDIATE … COMMIT)
 * and answers once that COMMIT is durable; anything `work` throws undoes all it wrote.
 *
 * For a file, on a connection of its own whose statements are prepared once and kept
 * — the client prepares each statement anew, and for an INSERT into facts that
 * compiles its triggers every time — taking its turn with every other transaction on
 * the file, like the client's (takeTurnsForTransactions). Work asked for while a turn
 * is awaited shares that transaction, each in a savepoint of its own, so many writes
 * cost one COMMIT (see keepWriter). Otherwise — a remote database, or `db` is itself a
 * transaction — through Drizzle. `work` must use only the Writes it is given, and
 * never wait for another transaction: the turn is held until it returns.
 */
export function writeTransaction<T>(db: Conn, work: (writes: Writes) => Promise<T>): Promise<T> {
  const client = (db as Partial<Db>).$client;
  const writer = client && writers.get(client);
  if (writer) return writer(work);
  return db.transaction((tx) => work(writesIn(tx)));
}

/** For a file: the write connection behind writeTransaction. Opened on first use, closed with the client. */
function keepWriter(client: Client, file: string): void {
  let database: Database.Database | null = null;
  let closed = false;
  const statements = new Map<string, Database.Statement>();
  const statement = (text: string) => {
    // Never reopened once closed: a write still waiting fails rather than commit on a connection nobody closes.
    if (closed) throw new Error("The database was closed before this write could run.");
    database ??= new Database(file, { timeout: BUSY_TIMEOUT_MS });
    let kept = statements.get(text);
    if (!kept) statements.set(text, (kept = database.prepare(text)));
    return kept;
  };
  const writes: Writes = {
    all: async <Row>(text: string, args: readonly SqlArg[]) => statement(text).all(positional(args)) as Row[],
    run: async (text, args) => {
      statement(text).run(positional(args));
    },
  };
  // Group commit: work asked for while a batch waits for its turn joins it. The batch
  // holds the write lock from BEGIN IMMEDIATE to COMMIT, so each work sees every write
  // before it (a limit counted in one holds for the next); each runs in a savepoint,
  // so one that fails is undone alone; all answer only once the one COMMIT — one
  // fsync, one flush of the full-text index — is durable, and if it fails, all fail.
  type Job = {
    work: (writes: Writes) => Promise<unknown>;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  };
  let waiting: Job[] = [];
  const runBatch = async () => {
    const release = await takeTurn(file);
    const batch = waiting;
    waiting = [];
    const done: { job: Job; result: unknown }[] = [];
    try {
      statement("BEGIN IMMEDIATE").run();
      for (const job of batch) {
        statement("SAVEPOINT one").run();
        try {
          done.push({ job, result: await job.work(writes) });
        } catch (error) {
          statement("ROLLBACK TO one").run();
          job.reject(error);
        } finally {
          statement("RELEASE one").run();
        }
      }
      statement("COMMIT").run();
      for (const { job, result } of done) job.resolve(result);
    } catch (error) {
      // Answer first: whatever the rollback does, no job is left waiting.
      for (const job of batch) job.reject(error); // a job already settled ignores this
      try {
        if (database?.inTransaction) statement("ROLLBACK").run();
      } catch (rollbackError) {
        console.error("Database: could not roll back a write transaction", rollbackError);
      }
    } finally {
      release();
    }
  };
  writers.set(
    client,
    <T>(work: (writes: Writes) => Promise<T>) =>
      new Promise<T>((resolve, reject) => {
        waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
        if (waiting.length === 1) {
          setImmediate(() => runBatch().catch((error) => console.error("Database: a write batch failed", error)));
        }
      }),
  );
  const close = client.close.bind(client);
  client.close = () => {
    closed = true;
    statements.clear();
    database?.close();
    database = null;
    close();
  };
}

/** The last transaction queued on each database file, shared by every copy of this module in the process. */
const transactionQueues = ((globalThis as { mnemoTransactionQueues?: Map<string, Promise<void>> })
  .mnemoTransactionQueues ??= new Map<string, Promise<void>>());

/** Waits for this process's turn to write `file`; call the function it returns when done. */
async function takeTurn(file: string): Promise<() => void> {
  const previous = transactionQueues.get(file) ?? Promise.resolve();
  let release!: () => void;
  const turn = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => turn);
  transactionQueues.set(file, tail);
  void tail.then(() => {
    if (transactionQueues.get(file) === tail) transactionQueues.delete(file);
  });
  await previous;
  return release;
}

/**
 * The embedded driver is synchronous: a second connection's BEGIN IMMEDIATE in this
 * process busy-waits on the one JavaScript thread, so the transaction holding the
 * lock can never finish and the waiter fails with SQLITE_BUSY after the timeout.
 * So transactions on one file, from any client in this process and writeTransaction's
 * connection, take turns; other processes still queue on SQLite's own lock.
 */
function takeTurnsForTransactions(client: Client, file: string): void {
  const begin = client.transaction.bind(client);
  client.transaction = async (mode?: TransactionMode) => {
    const release = await takeTurn(file);
    let tx: Transaction;
    try {
      tx = await begin(mode);
    } catch (error) {
      release();
      throw error;
    }
    const { commit, rollback, close } = tx;
    tx.commit = () => commit.call(tx).finally(release);
    tx.rollback = () => rollback.call(tx).finally(release);
    tx.close = () => {
      try {
        close.call(tx);
      } finally {
        release();
      }
    };
    return tx;
  };
}

/** Opens a database and proves it answers; for a file, switches it to WAL (kept in the file). */
export async function openDatabase(url: string, authToken?: string): Promise<Db> {
  const file = filePathOf(url);
  try {
    const created = file !== null && !existsSync(/*turbopackIgnore: true*/ file);
    const db = connect(url, authToken);
    if (file) await db.$client.execute("PRAGMA journal_mode = WAL");
    await db.$client.execute("SELECT 1");
    // SQLite gives them the database's own mode; this holds even where it might not.
    if (created) {
      for (const sibling of [`${file}-wal`, `${file}-shm`]) {
        if (existsSync(/*turbopackIgnore: true*/ sibling)) chmodSync(/*turbopackIgnore: true*/ sibling, DATABASE_FILE_MODE);
      }
    }
    return db;
  } catch (error) {
    throw new DatabaseOpenError(file ?? url, reasonOf(error));
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0];
}
