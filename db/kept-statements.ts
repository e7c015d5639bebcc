/**
 * A connection of its own to a database file whose statements are prepared once
 * and kept: `@libsql/client` prepares every statement anew and copies each value
 * into a row object, which cost more than the hot reads and writes themselves.
 * Opened on first use, closed with the client.
 */
import Database from "libsql";
import type { SqlArg } from "./plain-sql";
import { SECURE_DELETE_ON } from "./secure-delete";

/** How long a writer waits for another writer's lock before giving up (ms). */
export const BUSY_TIMEOUT_MS = 10_000;

export type KeptStatements = {
  /** Runs a statement and returns its rows as objects keyed by column name. */
  all(text: string, args?: readonly SqlArg[]): unknown[];
  run(text: string, args?: readonly SqlArg[]): void;
  /** Whether a transaction is open on this connection. */
  inTransaction(): boolean;
  close(): void;
};

/** `use` names what a call after close was for, in its error: "read" or "write". */
export function keptStatements(file: string, use: "read" | "write"): KeptStatements {
  let database: Database.Database | null = null;
  let closed = false;
  const statements = new Map<string, Database.Statement>();
  const statement = (text: string) => {
    // Never reopened once closed: a statement still waiting fails rather than run on a connection nobody closes.
    if (closed) throw new Error(`The database was closed before this ${use} could run.`);
    if (!database) {
      database = new Database(file, { timeout: BUSY_TIMEOUT_MS });
      // Freed pages are zeroed, so a deleted fact leaves no bytes behind (secure-delete.ts).
      database.exec(SECURE_DELETE_ON);
    }
    let kept = statements.get(text);
    if (!kept) statements.set(text, (kept = database.prepare(text)));
    return kept;
  };
  // One array, never spread: a lone null argument spread reads as named parameters and fails.
  const positional = (args: readonly SqlArg[]) => args as SqlArg[];
  return {
    all: (text, args = []) => statement(text).all(positional(args)),
    run: (text, args = []) => {
      statement(text).run(positional(args));
    },
    inTransaction: () => database?.inTransaction ?? false,
    close: () => {
      closed = true;
      statements.clear();
      database?.close();
      database = null;
    },
  };
}
