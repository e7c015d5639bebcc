/**
 * Making the vectors: facts wait in fact_vectors_due (filled by triggers on every
 * new fact and body change, drizzle/0010) and are embedded here in batches,
 * outside any write transaction; only storing the vectors is one. A vector is kept
 * only if the fact still says what was embedded — one corrected meanwhile stays
 * due, and its old meaning was already deleted by the trigger.
 *
 * In the server, a loop (startEmbedder, from instrumentation.ts) drains the queue
 * about every second, at once when nudged after a fact is kept. Several processes
 * may each run it: two embedding the same fact both write the same vector (INSERT
 * OR REPLACE), so double work costs a request, never correctness.
 */
import { readAll, readOne, writeTransaction, type Conn } from "@/db/client";
import { pairByMeaning } from "@/lib/memory/look-alike-pairs";
import { utcDay } from "@/lib/memory/rules";
import { nudgeLoop, startLoop } from "@/lib/ops/background-loop";
import { errorSummary } from "@/lib/ops/log";
import { requestEmbeddings } from "./provider";
import { embeddingsSettings, type EmbeddingsSettings } from "./settings";

/** Facts per request to the provider. */
export const BATCH_SIZE = 32;
/** A batch may take far longer than a question: a CPU-bound local model embedding 32 facts. */
const BATCH_TIMEOUT_MS = 30_000;
const IDLE_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

// Forgotten facts stay due, unembedded: they are never recalled, and a restored one is embedded then.
const DUE_SQL = `SELECT facts.id AS id, facts.body AS body
    FROM fact_vectors_due JOIN facts ON facts.id = fact_vectors_due.fact_id
    WHERE facts.forgotten_at IS NULL
    LIMIT ?`;
const STORE_SQL = `INSERT OR REPLACE INTO fact_vectors (fact_id, model, embedding, made_at)
    SELECT id, ?, vector32(?), ? FROM facts WHERE id = ? AND body = ?
    RETURNING fact_id`;
const DONE_SQL = "DELETE FROM fact_vectors_due WHERE fact_id = ?";
// A fact with a vector already (of another model: a reindex) was paired when it first got one.
const HAD_VECTOR_SQL = "SELECT 1 AS had FROM fact_vectors WHERE fact_id = ?";

export type Batch = { status: "done"; picked: number; embedded: number } | { status: "failed"; reason: string };

/** Embeds up to `size` due facts and stores their vectors. Never throws for the provider; a database error does throw. */
export async function embedDueBatch(db: Conn, settings: EmbeddingsSettings, size = BATCH_SIZE): Promise<Batch> {
  const due = await readAll<{ id: string; body: string }>(db, DUE_SQL, [size]);
  if (!due.length) return { status: "done", picked: 0, embedded: 0 };
  const answer = await requestEmbeddings(
    settings,
    due.map((fact) => fact.body),
    BATCH_TIMEOUT_MS,
  );
  if (!answer.ok) return { status: "failed", reason: answer.reason };
  const madeAt = new Date().toISOString();
  const today = utcDay();
  const embedded = await writeTransaction(db, async (writes) => {
    let stored = 0;
    for (const [i, fact] of due.entries()) {
      const [had] = await writes.all<{ had: number }>(HAD_VECTOR_SQL, [fact.id]);
      const kept = await writes.all<{ fact_id: string }>(STORE_SQL, [
        settings.model,
        JSON.stringify(answer.vectors[i]),
        madeAt,
        fact.id,
        fact.body,
      ]);
      if (!kept.length) continue; // corrected (or purged) since it was read: still due, or gone
      await writes.run(DONE_SQL, [fact.id]);
      // Look-alikes by meaning: only now does the new fact have a vector to compare (look-alike-pairs.ts).
      if (!had) await pairByMeaning(writes, fact.id, settings.model, today);
      stored++;
    }
    return stored;
  });
  return { status: "done", picked: due.length, embedded };
}

/** Live facts still waiting for a vector. */
export async function countDue(db: Conn): Promise<number> {
  const row = await readOne<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM fact_vectors_due JOIN facts ON facts.id = fact_vectors_due.fact_id WHERE facts.forgotten_at IS NULL`,
    [],
  );
  return row?.n ?? 0;
}

/** Puts every live fact without a vector of `model` in the queue (a new model, or vectors lost); returns how many it added. */
export async function queueMissingVectors(db: Conn, model: string): Promise<number> {
  return writeTransaction(db, async (writes) => {
    await writes.run(
      `INSERT OR IGNORE INTO fact_vectors_due (fact_id)
        SELECT id FROM facts WHERE forgotten_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM fact_vectors WHERE fact_vectors.fact_id = facts.id AND fact_vectors.model = ?)`,
      [model],
    );
    const [row] = await writes.all<{ n: number }>("SELECT changes() AS n", []);
    return row?.n ?? 0;
  });
}

export type Drained = { embedded: number; failed: string | null };

/** Embeds every live due fact now, batch after batch; stops at the first failure and says why. */
export async function drainDue(
  db: Conn,
  settings: EmbeddingsSettings,
  progress?: (embedded: number) => void,
): Promise<Drained> {
  let embedded = 0;
  let idle = 0;
  for (;;) {
    const batch = await embedDueBatch(db, settings);
    if (batch.status === "failed") return { embedded, failed: batch.reason };
    if (!batch.picked) return { embedded, failed: null };
    embedded += batch.embedded;
    progress?.(embedded);
    // Facts corrected faster than they are embedded, batch after batch: leave them to the server's loop.
    idle = batch.embedded ? 0 : idle + 1;
    if (idle >= 3) return { embedded, failed: null };
  }
}

const LOOP = "embedder";

/**
 * Starts the process's embedding loop (once; a second call is ignored) over the
 * database `db()` returns. It never throws: a failure — the provider down, the
 * database busy — is logged once and retried after a doubling pause of up to a
 * minute. Returns a function that stops it and resolves when it has.
 */
export function startEmbedder(db: () => Conn): () => Promise<void> {
  return startLoop(
    LOOP,
    async () => {
      try {
        const settings = embeddingsSettings();
        const batch = settings ? await embedDueBatch(db(), settings) : null;
        if (batch?.status === "failed") return { failed: batch.reason };
        return { more: batch?.picked === BATCH_SIZE };
      } catch (error) {
        return { failed: `could not embed facts: ${errorSummary(error)}` };
      }
    },
    {
      idleMs: IDLE_MS,
      retryMs: (previous) => Math.min(Math.max(previous * 2, IDLE_MS), MAX_BACKOFF_MS),
      // Resting after a failure, a nudge does not cut the pause short (the provider is given its rest).
      nudgeWhileFailing: false,
      events: { failed: "embeddings_failed", recovered: "embeddings_recovered" },
    },
  );
}

/** Wakes the loop now (a fact was just kept), unless it is resting after a failure. */
export function nudgeEmbedder(): void {
  nudgeLoop(LOOP);
}
