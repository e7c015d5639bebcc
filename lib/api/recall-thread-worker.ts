/**
 * The recall thread itself (recall-thread.ts): ranks the questions the serving thread
 * hands it with freshAnswer, as the request's thread would, on a connection of its own
 * to the app's database, and hands back each answer's bytes — or the refusal, for the
 * request to answer with.
 */
import { parentPort } from "node:worker_threads";
import { closeDb, getDb } from "@/db";
import { loadTokenizer } from "@/lib/memory/token-budget";
import { errorSummary, log } from "@/lib/ops/log";
import { ApiError } from "./errors";
import { freshAnswer } from "./recall-cache";
import type { FromThread, ThreadQuestion, ToThread } from "./recall-thread";

const port = parentPort!;
// Before the first question, as the server does at its start (instrumentation.ts).
loadTokenizer();

async function answer(id: number, question: ThreadQuestion): Promise<FromThread> {
  try {
    return { id, ...(await freshAnswer(getDb(), question.agent, question.input, question.today)) };
  } catch (error) {
    if (error instanceof ApiError) return { id, refused: { code: error.code, message: error.message, headers: error.headers } };
    log("error", "recall.failed", { error: errorSummary(error) });
    return { id, failed: errorSummary(error) };
  }
}

// Asked to close, the thread first answers the questions it is working on.
let working = 0;
let closing = false;
const closeWhenIdle = () => {
  if (!closing || working > 0) return;
  closeDb();
  port.close();
};

port.on("message", async (message: ToThread) => {
  if ("close" in message) {
    closing = true;
    return closeWhenIdle();
  }
  working++;
  const reply = await answer(message.id, message);
  working--;
  port.postMessage(reply, "answer" in reply ? [reply.answer.buffer] : []);
  closeWhenIdle();
});
