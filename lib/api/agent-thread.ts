/**
 * Agents' questions and remembers are worked out on a thread of their own, one per
 * server process, beside the thread that serves every request. Ranking a question is
 * about half a millisecond of JavaScript, keeping a fact about a millisecond of SQL,
 * look-alike pairing and checks; on the serving thread either holds up every request
 * queued behind it (health checks, kept answers, pages), and amid Next's own work
 * costs about twice what it costs alone (BENCHMARKS.md, "A thread of its own", and
 * "Remember on the agent thread"). The thread runs the very same code — recall's
 * freshAnswer, remember's rememberOnThisThread: place, rules in SQL, receipts — on a
 * connection of its own to the same database, and hands back the answer. It also writes
 * the serving thread's recall counts (lib/memory/usage.ts writeCountsWith): a batch of
 * them would otherwise hold the thread every request waits for. Neither thread's commits
 * checkpoint the WAL; the checkpointer does (db/checkpointer.ts).
 *
 * The serving thread has already checked the key and the rate limit. Writes from both
 * threads take turns on SQLite's own lock (a BEGIN IMMEDIATE that finds it taken asks
 * again from the event loop: db/lock-wait.ts), as a second process's would; the
 * versions every kept answer depends on live in the database, so each thread sees the
 * other's changes at once.
 *
 * Only the app's own database (db/index.ts) has a thread: the thread opens it from the
 * same environment, and is closed with it. A database a caller opened itself (tests,
 * the CLI), a transaction, MNEMO_AGENT_THREAD=off, or a thread that cannot start:
 * the work is done on the request's thread. If the thread dies or fails a job, the job
 * is done there too — a question only reads, so asking again changes nothing (but its
 * count: each thread counts the answers it makes, recall-cache.ts's freshAnswer, so one
 * the thread made and could not hand back counts twice, as does a batch of the serving
 * thread's counts it wrote and could not report; a death loses the thread's
 * counts not yet written, as a crash loses the process's, lib/memory/usage.ts); a
 * remember the thread may already have committed is recognized as the same fact
 * (deduplicated, as an agent's retry would be; one that `replaces` another too:
 * replacedAlready in lib/memory/replace.ts) — and after a death the thread rests a
 * while before starting again.
 */
import { isMainThread, Worker } from "node:worker_threads";
import type { Conn, Db } from "@/db/client";
import { openedDb } from "@/db";
import { readConfig } from "@/lib/config";
import { errorSummary, log } from "@/lib/ops/log";
import { spawnThread } from "@/lib/ops/threads";
import type { ErrorCode, RecallInput, RememberInput } from "@/lib/validation/agent-api";
import type { RememberAnswer } from "./agent-memory";
import type { AgentContext } from "./auth";
import { writeCountsWith } from "@/lib/memory/usage";
import { apiError } from "./errors";
import type { RecallAnswer } from "./recall-cache";

/** A question for the thread: what freshAnswer takes. */
export type ThreadQuestion = { agent: AgentContext; input: RecallInput; today: string };
/** A fact to keep: what rememberOnThisThread takes. */
export type ThreadRemember = { agent: AgentContext; input: RememberInput };

/**
 * A job, and what the thread answers it with; a recall answer's bytes are moved, not copied, between threads.
 * `ending` is the first message a thread gets: the flag kill() raises (one Int32 shared by both threads).
 */
export type ToThread =
  | { id: number; recall: ThreadQuestion }
  | { id: number; remember: ThreadRemember }
  | { id: number; counts: string }
  | { close: true }
  | { ending: Int32Array }
  | { end: true };
export type FromThread = { id: number } & (
  | { recalled: RecallAnswer }
  | { remembered: RememberAnswer }
  | { counted: true }
  | { refused: { code: ErrorCode; message: string; headers: Record<string, string> } }
  | { failed: true }
);

/** After the thread dies, jobs are done on the request's thread this long before it is started again. */
export const REST_MS = 30_000;
/** How long a closing thread may take to finish what it holds before it is ended. */
const CLOSE_MS = 5_000;

type Waiting = { resolve: (answer: never) => void; reject: (error: unknown) => void; onThisThread: () => Promise<unknown> };

/** The thread, from Next's bundle of its entry or from source (lib/ops/threads.ts). */
function spawn(): Worker {
  return spawnThread(() => new Worker(new URL("./agent-thread-worker.ts", import.meta.url)), import.meta.url, "agent-thread-worker.ts");
}

export class AgentThread {
  private worker: Worker | null = null;
  /** The running thread's flag, raised by kill(): it ends itself before its next message (agent-thread-worker.ts). */
  private ending: Int32Array | null = null;
  private lastId = 0;
  private readonly waiting = new Map<number, Waiting>();
  private restingUntil = 0;
  private closed = false;
  /** Questions and remembers the thread answered or refused (tests tell it apart from the request's thread by this). */
  answered = 0;

  /** Starts the thread, unless it is closed, rests, or runs already; false if there is none to ask. */
  start(): boolean {
    if (this.closed || Date.now() < this.restingUntil) return false;
    if (this.worker) return true;
    let worker: Worker;
    const ending = new Int32Array(new SharedArrayBuffer(4));
    try {
      worker = spawn();
      worker.postMessage({ ending } satisfies ToThread);
    } catch (error) {
      this.rest(error);
      return false;
    }
    // The thread never keeps the process alive; requests waiting on it are what the server is there for.
    worker.unref();
    worker.on("message", (reply: FromThread) => this.settle(reply));
    worker.on("error", (error) => log("error", "agent_thread.failed", { error: errorSummary(error) }));
    // A reply that cannot be read would leave its job waiting: end the thread, and "exit" answers what it held.
    worker.on("messageerror", (error) => {
      log("error", "agent_thread.failed", { error: errorSummary(error) });
      void endBetweenStatements(worker, ending);
    });
    worker.on("exit", () => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (!this.closed) this.rest(new Error("the agent thread exited"));
      for (const id of [...this.waiting.keys()]) this.answerHere(id);
    });
    this.ending = ending;
    this.worker = worker;
    this.restingUntil = 0;
    return true;
  }

  /** The answer to a question: from the thread, or by `onThisThread` (the request's thread) when there is none. */
  recall(question: ThreadQuestion, onThisThread: () => Promise<RecallAnswer>): Promise<RecallAnswer> {
    return this.ask((id) => ({ id, recall: question }), onThisThread);
  }

  /** A fact kept: by the thread, or by `onThisThread` (the request's thread) when there is none. */
  remember(job: ThreadRemember, onThisThread: () => Promise<RememberAnswer>): Promise<RememberAnswer> {
    return this.ask((id) => ({ id, remember: job }), onThisThread);
  }

  /**
   * A batch of the serving thread's recall counts (usage.ts), written on the thread's connection: by the thread, or
   * by `onThisThread` when there is none, or it fails the batch.
   */
  writeCounts(batch: string, onThisThread: () => Promise<void>): Promise<void> {
    return this.ask((id) => ({ id, counts: batch }), onThisThread);
  }

  private ask<T>(job: (id: number) => ToThread, onThisThread: () => Promise<T>): Promise<T> {
    if (!this.start()) return onThisThread();
    const id = ++this.lastId;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (answer: never) => void, reject, onThisThread });
      try {
        this.worker!.postMessage(job(id));
      } catch (error) {
        log("error", "agent_thread.failed", { error: errorSummary(error) });
        this.answerHere(id);
      }
    });
  }

  /**
   * Asks the thread to finish what it holds, close its database and end; for good. Resolves
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

  /** Ends the thread as a crash would, leaving the jobs it holds unanswered (tests): endBetweenStatements. */
  async kill(): Promise<void> {
    const { worker, ending } = this;
    if (worker && ending) await endBetweenStatements(worker, ending);
  }

  private settle(reply: FromThread): void {
    const waiting = this.waiting.get(reply.id);
    if (!waiting) return;
    // The thread logged what went wrong; the serving thread may still answer (its own connection, its own state).
    if ("failed" in reply) return this.answerHere(reply.id);
    this.waiting.delete(reply.id);
    if (!("counted" in reply)) this.answered++;
    if ("refused" in reply) waiting.reject(apiError(reply.refused.code, reply.refused.message, reply.refused.headers));
    else waiting.resolve(("recalled" in reply ? reply.recalled : "remembered" in reply ? reply.remembered : undefined) as never);
  }

  /** Does a job the thread holds on the request's thread instead; after a close, fails it. */
  private answerHere(id: number): void {
    const waiting = this.waiting.get(id);
    if (!waiting) return;
    this.waiting.delete(id);
    (this.closed ? Promise.reject(new Error("The database was closed.")) : waiting.onThisThread()).then(
      waiting.resolve as (answer: unknown) => void,
      waiting.reject,
    );
  }

  private rest(error: unknown): void {
    this.restingUntil = Date.now() + REST_MS;
    log("error", "agent_thread.resting", { error: errorSummary(error), seconds: REST_MS / 1000 });
  }
}

/**
 * Ends a thread as a crash would, but between statements, never inside one (where
 * terminate() makes the driver's native code panic and take the process down): the
 * flag it checks before each message it reads, and an `end` for an idle thread.
 */
function endBetweenStatements(worker: Worker, ending: Int32Array): Promise<void> {
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  Atomics.store(ending, 0, 1);
  worker.postMessage({ end: true } satisfies ToThread);
  return exited;
}

// On globalThis, like the readers: the bundler makes several copies of this module (instrumentation's and the routes'),
// and each copy with a map of its own would start a thread of its own.
const threads = ((globalThis as { mnemoAgentThreads?: WeakMap<object, AgentThread | null> }).mnemoAgentThreads ??= new WeakMap());

/** The agent thread of this database: only the app's own, on the main thread, unless switched off. */
export function agentThreadFor(db: Conn): AgentThread | null {
  const client = (db as Partial<Db>).$client;
  if (!client || !isMainThread || db !== openedDb()) return null;
  let thread = threads.get(client);
  if (thread === undefined) {
    thread = readConfig().MNEMO_AGENT_THREAD === "on" ? new AgentThread() : null;
    threads.set(client, thread);
    if (thread) {
      const writer = thread;
      writeCountsWith(db, (batch, here) => writer.writeCounts(batch, here));
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
