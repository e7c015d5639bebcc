/**
 * The one way the data layer reads with plain SQL. For a file, a connection of its
 * own whose statements are prepared once and kept (kept-statements.ts); in WAL mode
 * it sees every committed write. Reads only — writes go through writer.ts.
 */
import type { Client } from "@libsql/client";
import type { Conn, Db } from "./client";
import { keptStatements } from "./kept-statements";
import { runPlain, type SqlArg } from "./plain-sql";

type Reader = (text: string, args: readonly SqlArg[]) => unknown[];
// On globalThis, like the transaction queues: the bundler may make several copies of this module.
const readers = ((globalThis as { mnemoReaders?: WeakMap<Client, Reader> }).mnemoReaders ??= new WeakMap());

/** For a file: the read connection behind readAll, closed with the client. */
export function keepReader(client: Client, file: string): void {
  const kept = keptStatements(file, "read");
  readers.set(client, kept.all);
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
  const client = (db as Partial<Db>).$client;
  const read = client && readers.get(client);
  if (read) return read(text, args) as Row[];
  return runPlain<Row>(db, text, args);
}
