/**
 * The agent thread itself (agent-thread.ts): ranks the questions and keeps the facts
 * the serving thread hands it, as the request's thread would, on a connection of its
 * own to the app's database, and hands back each answer — or the refusal, for the
 * request to answer with.
 */
import { parentPort } from "node:worker_threads";
import { closeDb, getDb } from "@/db";
import { BACKSTOP_PAGES } from "@/db/checkpointer";
import { setCheckpointPages } from "@/db/client";
import { loadTokenizer } from "@/lib/memory/token-budget";
import { flushUsage, writeCountsHere } from "@/lib/memory/usage";
import { errorSummary, log } from "@/lib/ops/log";
import { rememberOnThisThread } from "./agent-memory";
import type { FromThread, ToThread } from "./agent-thread";
import { ApiError } from "./errors";
import { freshAnswer } from "./recall-cache";

const port = parentPort!;
// Before the first question, as the server does at its start (instrumentation.ts).
loadTokenizer();
// The server's checkpointer copies the WAL back (db/checkpointer.ts), so this thread's commits, which queued
// questions wait behind, do it only past its backstop; without one, the serving thread's commits still do at the usual mark.
setCheckpointPages(getDb(), BACKSTOP_PAGES);

type Job = Extract<ToThread, { id: number }>;

async function answer(job: Job): Promise<FromThread> {
  const { id } = job;
  try {
    if ("recall" in job) {
      const { agent, input, today } = job.recall;
      // The bytes only: a question's answer is not kept, so the serving thread has no use for its facts' seqs.
      return { id, recalled: (await freshAnswer(getDb(), agent, input, today)).answer };
    }
    if ("counts" in job) {
      await writeCountsHere(getDb(), job.counts);
      return { id, counted: true };
    }
    return { id, remembered: await rememberOnThisThread(getDb(), job.remember.agent, job.remember.input) };
  } catch (error) {
    if (error instanceof ApiError) return { id, refused: { code: error.code, message: error.message, headers: error.headers } };
    log("error", "recall" in job ? "recall.failed" : "counts" in job ? "usage.flush_failed" : "remember.failed", { error: errorSummary(error) });
    return { id, failed: true };
  }
}

// Asked to close, the thread first finishes the jobs it is working on, then writes the recall counts of the answers
// it made (freshAnswer: each thread writes its own, usage.ts), then closes its connection.
let working = 0;
let closing = false;
let closed = false;
const closeWhenIdle = () => {
  if (!closing || working > 0 || closed) return;
  closed = true;
  void flushUsage()
    .catch((error: unknown) => log("error", "usage.flush_failed", { error: errorSummary(error) }))
    .finally(() => {
      closeDb();
      port.close();
    });
};

// Raised by the serving thread's kill(): read before each message, so the thread ends between statements.
let ending: Int32Array | null = null;

port.on("message", async (message: ToThread) => {
  if (ending && Atomics.load(ending, 0) === 1) process.exit(1);
  if ("ending" in message) {
    ending = message.ending;
    return;
  }
  if ("end" in message) return;
  if ("close" in message) {
    closing = true;
    return closeWhenIdle();
  }
  working++;
  const reply = await answer(message);
  working--;
  port.postMessage(reply, "recalled" in reply ? [reply.recalled.buffer] : []);
  closeWhenIdle();
});
