/**
 * Questions are ranked on a thread of their own, one per server process, beside the
 * thread that serves every request. A question's ranking is about half a millisecond
 * of JavaScript: on the serving thread it holds up every request queued behind it
 * (health checks, kept answers, pages), and amid Next's own work it costs about twice
 * what it costs alone (BENCHMARKS.md, "A thread of its own"). The thread runs the very
 * same recallJsonForAgent — place, rules in SQL, ranking, receipts — on a connection
 * of its own to the same database, and hands back the answer's bytes.
 *
 * Only the app's own database (db/index.ts) has a thread: the thread opens it from the
 * same environment, and is closed with it. A database a caller opened itself (tests,
 * the CLI), a transaction, MNEMO_RECALL_THREAD=off, or a thread that cannot start:
 * the question is ranked on the request's thread. If the thread dies or fails a
 * question, the question is ranked there too (ranking only reads, so asking again
 * changes nothing); after a death it rests a while before starting again.
 */
import { isMainThread, Worker } from "node:worker_threads";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Conn, Db } from "@/db/client";
import { openedDb } from "@/db";
import { readConfig } from "@/lib/config";
import { errorSummary, log } from "@/lib/ops/log";
import type { ErrorCode, RecallInput } from "@/lib/validation/agent-api";
import type { AgentContext } from "./auth";
import { apiError } from "./errors";
import type { KeptRecall } from "./recall-cache";

/** A question for the thread: what recallJsonForAgent takes. */
export type ThreadQuestion = { agent: AgentContext; input: RecallInput; today: string };

/** The answer's bytes are moved, not copied, between threads. */
export type ToThread = ({ id: number } & ThreadQuestion) | { close: true };
export type FromThread = { id: number } & (
  | KeptRecall
  | { refused: { code: ErrorCode; message: string; headers: Record<string, string> } }
  | { failed: string }
);

/** After the thread dies, questions are ranked on the request's thread this long before it is started again. */
export const REST_MS = 30_000;
/** How long a closing thread may take to answer what it holds before it is ended. */
const CLOSE_MS = 5_000;

type Waiting = { resolve: (answer: KeptRecall) => void; reject: (error: unknown) => void; onThisThread: () => Promise<KeptRecall> };

/** Next's build makes the entry a chunk of its own; run from source (tests), tsx compiles it on the way in. */
function spawn(): Worker {
  if (process.env.NEXT_RUNTIME) return new Worker(new URL("./recall-thread-worker.ts", import.meta.url));
  const dir = path.dirname(fileURLToPath(import.meta.url));
  return new Worker(path.join(/*turbopackIgnore: true*/ dir, "recall-thread-tsx.mjs"), {
    workerData: { entry: path.join(/*turbopackIgnore: true*/ dir, "recall-thread-worker.ts") },
  });
}

export class RecallThread {
  private worker: Worker | null = null;
  private lastId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private restingUntil = 0;
  private closed = false;
  /** Questions the thread answered or refused (tests tell it apart from the request's thread by this). */
  answered = 0;

  /** Starts the thread, unless it is closed, rests, or runs already; false if there is none to ask. */
  start(): boolean {
    if (this.closed || Date.now() < this.restingUntil) return false;
    if (this.worker) return true;
    let worker: Worker;
    try {
      worker = spawn();
    } catch (error) {
      this.rest(error);
      return false;
    }
    // The thread never keeps the process alive; requests waiting on it are what the server is there for.
    worker.unref();
    worker.on("message", (reply: FromThread) => this.settle(reply));
    worker.on("error", (error) => log("error", "recall.thread_failed", { error: errorSummary(error) }));
    // A reply that cannot be read would leave its question waiting: end the thread, and "exit" answers what it held.
    worker.on("messageerror", () => void worker.terminate());
    worker.on("exit", () => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (!this.closed) this.rest(new Error("the recall thread exited"));
      for (const id of [...this.waiting.keys()]) this.answerHere(id);
    });
    this.worker = worker;
    this.restingUntil = 0;
    return true;
  }

  /** The answer to a question: from the thread, or by `onThisThread` (the request's thread) when there is none. */
  ask(question: ThreadQuestion, onThisThread: () => Promise<KeptRecall>): Promise<KeptRecall> {
    if (!this.start()) return onThisThread();
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, onThisThread });
      try {
        this.worker!.postMessage({ id, ...question } satisfies ToThread);
      } catch (error) {
        log("error", "recall.thread_failed", { error: errorSummary(error) });
        this.answerHere(id);
      }
    });
  }

  /**
   * Asks the thread to answer what it holds, close its database and end; for good. Resolves
   * once it has ended (at most CLOSE_MS), so the app's own connection can be the last to close.
   */
  close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
      worker.once("exit", () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage({ close: true } satisfies ToThread);
    });
  }

  /** Ends the thread at once, as a crash would (tests). */
  async kill(): Promise<void> {
    await this.worker?.terminate();
  }

  private settle(reply: FromThread): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    // The thread logged what went wrong; the serving thread may still answer (its own connection, its own state).
    if ("failed" in reply) return this.answerHere(reply.id);
    this.waiting.delete(reply.id);
    this.answered++;
    if ("answer" in reply) waiting.resolve({ answer: reply.answer, factIds: reply.factIds });
    else waiting.reject(apiError(reply.refused.code, reply.refused.message, reply.refused.headers));
  }

  /** Answers a question the thread holds on the request's thread instead; after a close, fails it. */
  private answerHere(id: number): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    (this.closed ? Promise.reject(new Error("The database was closed.")) : waiting.onThisThread()).then(waiting.resolve, waiting.reject);
  }

  private rest(error: unknown): void {
    this.restingUntil = Date.now() + REST_MS;
    log("error", "recall.thread_resting", { error: errorSummary(error), seconds: REST_MS / 1000 });
  }
}

// On globalThis, like the readers: the bundler makes several copies of this module (instrumentation's and the routes'),
// and each copy with a map of its own would start a thread of its own.
const threads = ((globalThis as { mnemoRecallThreads?: WeakMap<object, RecallThread | null> }).mnemoRecallThreads ??= new WeakMap());

/** The recall thread of this database: only the app's own, on the main thread, unless switched off. */
export function recallThreadFor(db: Conn): RecallThread | null {
  const client = (db as Partial<Db>).$client;
  if (!client || !isMainThread || db !== openedDb()) return null;
  let thread = threads.get(client);
  if (thread === undefined) {
    thread = readConfig().MNEMO_RECALL_THREAD === "on" ? new RecallThread() : null;
    threads.set(client, thread);
    if (thread) {
      // The thread's connection closes with this one (closeDb, tests moving to another file, the server's exit); a
      // graceful stop closes the thread first (instrumentation.ts), so that this connection is the last to close.
      const close = client.close.bind(client);
      client.close = () => {
        void thread!.close();
        close();
      };
    }
  }
  return thread;
}
