/**
 * Transactions on one database file take turns within this thread.
 *
 * The embedded driver is synchronous: a second connection's BEGIN IMMEDIATE on this
 * thread busy-waits on the one JavaScript thread, so the transaction holding the
 * lock can never finish and the waiter fails with SQLITE_BUSY after the timeout.
 * So every transaction on a file — the client's, and the kept write connection's
 * (writer.ts) — waits for its turn here. Other threads (the agent thread,
 * lib/api/agent-thread.ts, has a queue of its own) and other processes queue on
 * SQLite's own lock: the holder runs on, so the wait ends.
 */
import type { Client, Transaction, TransactionMode } from "@libsql/client";

/** The last transaction queued on each database file, shared by every copy of this module on the thread (the bundler may make several). */
const transactionQueues = ((globalThis as { mnemoTransactionQueues?: Map<string, Promise<void>> })
  .mnemoTransactionQueues ??= new Map<string, Promise<void>>());

/** Waits for this process's turn to write `file`; call the function it returns when done. */
export async function takeTurn(file: string): Promise<() => void> {
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

/** Makes the client's transactions on `file` wait for their turn, and give it up when they end. */
export function takeTurnsForTransactions(client: Client, file: string): void {
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
