/**
 * The WAL's checkpoints, on a thread of their own. A checkpoint copies the pages the
 * WAL has gathered back into the file and waits for the disk: 20–130 ms at a million
 * facts (BENCHMARKS.md, the twenty-first session). SQLite runs it inside whichever
 * COMMIT crosses the mark, and the driver is synchronous, so it held up the thread
 * that committed — the serving thread, every request with it, or the agent thread, every
 * question queued behind it. In a server the checkpointer takes them all: it copies back
 * at WAL_CHECKPOINT_PAGES, as they did, and the request threads' connections checkpoint
 * only at BACKSTOP_PAGES, which the WAL reaches only if the thread fell behind.
 *
 * Only for a file (a libSQL server checkpoints on its own), started by the server
 * (instrumentation.ts); tests and the CLI commit as before. If the thread dies, the
 * serving thread's connection takes the usual mark back.
 */
import { Worker } from "node:worker_threads";
import type { Client } from "@libsql/client";
import { spawnThread } from "@/lib/ops/threads";
import type { Db } from "./client";
import { filePathOf } from "./files";
import { WAL_CHECKPOINT_PAGES } from "./kept-statements";
import { setCheckpointPages } from "./writer";

/** Where a request thread's own commit checkpoints when a checkpointer runs: only if it fell behind, or died. */
export const BACKSTOP_PAGES = 4 * WAL_CHECKPOINT_PAGES;
/** How often the thread looks at the WAL (a read of 100 bytes). */
const CHECK_EVERY_MS = 100;
/** How long a closing thread may take to finish a checkpoint before it is ended. */
const CLOSE_MS = 5_000;

/** What the thread starts with. */
export type CheckpointerData = { file: string; pages: number; everyMs: number };
/** What it reports: each checkpoint it ran (frames in the WAL, frames copied, how long), or why one failed. */
export type FromCheckpointer = { log: number; checkpointed: number; ms: number } | { failed: string };

export class Checkpointer {
  /** Checkpoints run, and the last one's report (tests, and the log when one fails). */
  runs = 0;
  last: FromCheckpointer | null = null;
  private readonly exited: Promise<void>;

  /** `worker`: the thread (tests end it as a crash would). */
  constructor(readonly worker: Worker, onDeath: () => void) {
    let closing = false;
    this.close = () => {
      if (!closing) {
        closing = true;
        const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
        void this.exited.then(() => clearTimeout(timer));
        worker.postMessage("close");
      }
      return this.exited;
    };
    this.exited = new Promise((resolve) =>
      worker.once("exit", () => {
        if (!closing) onDeath();
        resolve();
      }),
    );
    worker.unref();
    worker.on("message", (report: FromCheckpointer) => {
      this.last = report;
      if ("failed" in report) console.error(`[database] a checkpoint failed: ${report.failed}`);
      else this.runs++;
    });
    worker.on("error", (error) => console.error("[database] the checkpointer thread failed", error));
  }

  /** Asks the thread to stop between checks and close its connection; resolves once it has (at most CLOSE_MS). */
  readonly close: () => Promise<void>;
}

// On globalThis, like the writers: the bundler may make several copies of this module.
const checkpointers = ((globalThis as { mnemoCheckpointers?: WeakMap<Client, Checkpointer> }).mnemoCheckpointers ??= new WeakMap());

/**
 * Starts the checkpointer of `db`, opened from `url`, once; null for a remote database. Its
 * connection's commits then leave the checkpoints to it. `pages` (tests): the mark it
 * copies back at, WAL_CHECKPOINT_PAGES unless set. Closed with the client.
 */
export function startCheckpointer(db: Db, url: string, pages = WAL_CHECKPOINT_PAGES): Checkpointer | null {
  const file = filePathOf(url);
  if (!file) return null;
  const client = db.$client;
  const running = checkpointers.get(client);
  if (running) return running;
  const data: CheckpointerData = { file, pages, everyMs: CHECK_EVERY_MS };
  let worker: Worker;
  try {
    const bundled = () => new Worker(new URL("./checkpointer-worker.ts", import.meta.url), { workerData: data });
    worker = spawnThread(bundled, import.meta.url, "checkpointer-worker.ts", data);
  } catch (error) {
    console.error("[database] could not start the checkpointer thread; commits checkpoint as before", error);
    return null;
  }
  const checkpointer = new Checkpointer(worker, () => {
    console.error("[database] the checkpointer thread ended; commits checkpoint as before");
    setCheckpointPages(db, WAL_CHECKPOINT_PAGES);
  });
  checkpointers.set(client, checkpointer);
  setCheckpointPages(db, BACKSTOP_PAGES);
  const close = client.close.bind(client);
  client.close = () => {
    void checkpointer.close();
    close();
  };
  return checkpointer;
}
