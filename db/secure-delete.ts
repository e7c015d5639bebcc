/**
 * Erased means gone from the file too (issue #16): SQLite leaves a deleted row's
 * bytes in the freed page until something overwrites it, unless `secure_delete`
 * is on — and it is a per-connection setting, off by default in this build.
 * The kept connections turn it on when they open (kept-statements.ts). The
 * client opens its own pooled connections out of our reach, so every way it can
 * write turns it on first, on the very connection that writes: a transaction
 * right after BEGIN, a batch, migration or script as its first statement, and a write
 * sent alone as a one-statement batch. Reads and statements that cannot run in
 * a transaction (VACUUM, journal_mode) go through as they are; they free nothing.
 */
import type { Client, InStatement, ResultSet, TransactionMode } from "@libsql/client";

export const SECURE_DELETE_ON = "PRAGMA secure_delete = ON";

/** Statements that may free a page: writes, and DDL that drops or rebuilds (a WITH only when it writes). */
const WRITE = /^\s*(insert|update|delete|replace|drop|alter)\b/i;
const WITH_WRITE = /^\s*with\b[\s\S]*\b(insert|update|delete|replace)\b/i;

function writes(statement: InStatement): boolean {
  const text = typeof statement === "string" ? statement : statement.sql;
  return WRITE.test(text) || WITH_WRITE.test(text);
}

/** Makes every write through `client` run on a connection with secure_delete on. */
export function zeroFreedPages(client: Client): void {
  const execute = client.execute.bind(client) as (statement: InStatement) => Promise<ResultSet>;
  const batch = client.batch.bind(client);
  const migrate = client.migrate.bind(client);
  const transaction = client.transaction.bind(client);

  client.batch = async (statements, mode?: TransactionMode) => {
    const results = await batch([SECURE_DELETE_ON, ...statements], mode);
    return results.slice(1);
  };
  client.migrate = async (statements) => {
    const results = await migrate([SECURE_DELETE_ON, ...statements]);
    return results.slice(1);
  };
  const executeMultiple = client.executeMultiple.bind(client);
  client.executeMultiple = (text: string) => executeMultiple(`${SECURE_DELETE_ON};\n${text}`);
  client.execute = (async (statementOrSql: InStatement, args?: unknown) => {
    const statement: InStatement =
      typeof statementOrSql === "string" && args !== undefined
        ? ({ sql: statementOrSql, args } as InStatement)
        : statementOrSql;
    if (!writes(statement)) return execute(statement);
    // A write alone commits alone either way; as a batch it shares the pragma's connection.
    const [result] = await client.batch([statement], "write");
    return result;
  }) as Client["execute"];
  client.transaction = async (mode?: TransactionMode) => {
    const tx = await transaction(mode);
    try {
      await tx.execute(SECURE_DELETE_ON);
    } catch (error) {
      tx.close();
      throw error;
    }
    return tx;
  };
}
