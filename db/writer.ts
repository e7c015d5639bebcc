/**
 * The one way the data layer writes: writeTransaction. For a file, on a connection
 * of its own whose statements are prepared once and kept — the client prepares each
 * statement anew, and for an INSERT into facts that compiles its triggers every
 * time — with group commit; otherwise through Drizzle. Callers never choose.
 */
import type { Client } from "@libsql/client";
import type { Conn, Db } from "./client";
import { BUSY_TIMEOUT_MS, keptStatements, type KeptStatements } from "./kept-statements";
import { retryWhileBusy } from "./lock-wait";
import { runPlain, type SqlArg } from "./plain-sql";
import { takeTurn } from "./write-queue";

/** A write transaction's statements: plain SQL with `?` parameters (no `?` inside literals). */
export type Writes = {
  /** Runs a statement and returns its rows (a SELECT, or a write with RETURNING) as objects keyed by column name. */
  all<Row>(text: string, args: readonly SqlArg[]): Promise<Row[]>;
  run(text: string, args: readonly SqlArg[]): Promise<void>;
};

/**
 * `fsync: false` — for counts the product may lose (recall usage, the rate limit's, a key's
 * last use): the COMMIT does
 * not wait for the disk. A killed process keeps the write (the system holds it); a
 * power cut may lose it and every other such write since the last commit that
 * waited, never one that waited (its fsync covers the whole WAL before it). Only
 * when every write sharing the COMMIT says so (group commit), and only in WAL mode
 * (elsewhere skipping the sync risks the file); a remote database decides for itself.
 */
export type WriteOptions = { fsync?: boolean };

/** A file's kept write connection, and the group commit that writes through it (keepWriter). */
type Writer = {
  write: <T>(work: (writes: Writes) => Promise<T>, options: WriteOptions) => Promise<T>;
  kept: KeptStatements;
  file: string;
};
// On globalThis, like the transaction queues: the bundler may make several copies of this module.
const writers = ((globalThis as { mnemoKeptWriters?: WeakMap<Client, Writer> }).mnemoKeptWriters ??= new WeakMap());

/** The statements of an open Drizzle transaction, as Writes. */
function writesIn(tx: Conn): Writes {
  return {
    all: <Row>(text: string, args: readonly SqlArg[]) => runPlain<Row>(tx, text, args),
    run: async (text, args) => {
      await runPlain(tx, text, args);
    },
  };
}

/**
 * Runs `work` all or nothing inside a write transaction (BEGIN IMMEDIATE … COMMIT)
 * and answers once that COMMIT is durable (written, without `fsync: false`);
 * anything `work` throws undoes all it wrote.
 *
 * For a file, on the kept write connection, taking its turn with every other
 * transaction on the file (write-queue.ts). Work asked for while a turn is awaited
 * shares that transaction, each in a savepoint of its own, so many writes cost one
 * COMMIT (see keepWriter). Otherwise — a remote database, or `db` is itself a
 * transaction — through Drizzle. `work` must use only the Writes it is given, and
 * never wait for another transaction: the turn is held until it returns.
 */
export function writeTransaction<T>(db: Conn, work: (writes: Writes) => Promise<T>, options: WriteOptions = {}): Promise<T> {
  const client = (db as Partial<Db>).$client;
  const writer = client && writers.get(client);
  if (writer) return writer.write(work, options);
  return db.transaction((tx) => work(writesIn(tx)));
}

/**
 * How many pages this process's commits let the file's WAL gather before the COMMIT that
 * crosses the mark copies them back (WAL_CHECKPOINT_PAGES unless set; a file's only, a
 * remote database checkpoints on its own). Whichever connection commits past the mark
 * runs the checkpoint, holding its thread for it: 20–130 ms at a million facts.
 */
export function setCheckpointPages(db: Conn, pages: number): void {
  const client = (db as Partial<Db>).$client;
  const writer = client && writers.get(client);
  writer?.kept.checkpointAt(pages);
}

/** Between two asks for a write lock another connection holds: its holders' transactions take a few ms. */
const LOCK_RETRY_MS = 1;
const retryPause = () => new Promise<void>((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
/** Between two tries to fold the WAL: a reader's snapshot is let go between two of its statements, so tries grow apart to this. */
const FOLD_RETRY_MAX_MS = 50;

/**
 * After an erasure or a permanent delete (issue #16): copies the WAL back into the file
 * and empties it, so the pages as they were before the delete are not left in the WAL
 * file until it wraps round. On the kept write connection, in this thread's write turn
 * (a checkpoint waits for writers). While another connection holds the log — a reader
 * on an older snapshot (the agent thread's: lib/api/agent-thread.ts, another process's)
 * or a writer — it asks again from the event loop, a turn at a time, until `timeoutMs`:
 * SQLite's own busy handler would sleep the thread, and every request it serves, for
 * as long. Best effort: false when it could not, or `db` has no kept writer (a remote
 * database, a transaction) — the frames are then overwritten as the WAL is reused.
 */
export async function foldWal(db: Conn, timeoutMs = BUSY_TIMEOUT_MS): Promise<boolean> {
  const client = (db as Partial<Db>).$client;
  const writer = client && writers.get(client);
  if (!writer) return false;
  let pause = LOCK_RETRY_MS;
  const growingPause = () => {
    const wait = pause;
    pause = Math.min(pause * 2, FOLD_RETRY_MAX_MS);
    return new Promise<void>((resolve) => setTimeout(resolve, wait));
  };
  // The turn is let go between tries, so this thread's own writes go on while the fold waits.
  const fold = async () => {
    const release = await takeTurn(writer.file);
    try {
      writer.kept.truncateWalNow();
    } finally {
      release();
    }
  };
  try {
    await retryWhileBusy(fold, timeoutMs, growingPause);
    return true;
  } catch {
    return false;
  }
}

/** For a file: the write connection behind writeTransaction, closed with the client. */
export function keepWriter(client: Client, file: string): void {
  const kept = keptStatements(file, "write");
  const writes: Writes = {
    all: async <Row>(text: string, args: readonly SqlArg[]) => kept.all(text, args) as Row[],
    run: async (text, args) => kept.run(text, args),
  };
  // Group commit: work asked for while a batch waits for its turn joins it. The batch
  // holds the write lock from BEGIN IMMEDIATE to COMMIT, so each work sees every write
  // before it (a limit counted in one holds for the next); each runs in a savepoint,
  // so one that fails is undone alone; all answer only once the one COMMIT — one
  // fsync, one flush of the full-text index — is durable, and if it fails, all fail.
  // (No fsync when every work in the batch asked for none: WriteOptions.)
  type Job = {
    work: (writes: Writes) => Promise<unknown>;
    fsync: boolean;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  };
  let waiting: Job[] = [];
  // The connection's own level (SQLite's default, FULL), put back after a COMMIT that did not wait for the disk,
  // and whether it is still lowered (a failed restore): a batch that must wait restores it first, or fails.
  let durable: { synchronous: number; wal: boolean } | undefined;
  let lowered = false;
  const restore = () => {
    kept.run(`PRAGMA synchronous = ${durable!.synchronous}`);
    lowered = false;
  };
  const runBatch = async () => {
    const release = await takeTurn(file);
    const batch = waiting;
    waiting = [];
    const done: { job: Job; result: unknown }[] = [];
    // SQLite takes the level only outside a transaction, so it is set for the batch as a whole.
    const relaxed = batch.every((job) => !job.fsync);
    try {
      if (lowered && !relaxed) restore();
      if (relaxed) {
        durable ??= {
          synchronous: (kept.all("PRAGMA synchronous")[0] as { synchronous: number }).synchronous,
          wal: (kept.all("PRAGMA journal_mode")[0] as { journal_mode: string }).journal_mode === "wal",
        };
        if (durable.wal) {
          kept.run("PRAGMA synchronous = NORMAL");
          lowered = true;
        }
      }
      // Another thread's or process's lock is waited for from the event loop, not in SQLite's sleeping busy handler.
      await retryWhileBusy(() => kept.beginImmediateNow(), BUSY_TIMEOUT_MS, retryPause);
      for (const job of batch) {
        kept.run("SAVEPOINT one");
        try {
          done.push({ job, result: await job.work(writes) });
        } catch (error) {
          kept.run("ROLLBACK TO one");
          job.reject(error);
        } finally {
          kept.run("RELEASE one");
        }
      }
      kept.run("COMMIT");
      for (const { job, result } of done) job.resolve(result);
    } catch (error) {
      // Answer first: whatever the rollback does, no job is left waiting.
      for (const job of batch) job.reject(error); // a job already settled ignores this
      try {
        if (kept.inTransaction()) kept.run("ROLLBACK");
      } catch (rollbackError) {
        console.error("Database: could not roll back a write transaction", rollbackError);
      }
    } finally {
      try {
        if (lowered) restore();
      } catch (error) {
        console.error("Database: could not restore synchronous after a write without fsync; the next write that waits will", error);
      }
      release();
    }
  };
  writers.set(client, {
    kept,
    file,
    write: <T>(work: (writes: Writes) => Promise<T>, options: WriteOptions) =>
      new Promise<T>((resolve, reject) => {
        waiting.push({ work, fsync: options.fsync !== false, resolve: resolve as (value: unknown) => void, reject });
        if (waiting.length === 1) {
          setImmediate(() => runBatch().catch((error) => console.error("Database: a write batch failed", error)));
        }
      }),
  });
  const close = client.close.bind(client);
  client.close = () => {
    kept.close();
    close();
  };
}
