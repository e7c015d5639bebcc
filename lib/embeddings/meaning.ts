/**
 * Recall's meaning side: the facts whose vectors lie nearest a question's, among
 * those the rules let this agent recall in this place. The rules are in the query
 * itself — agent, workspace, live, unexpired, and one of the place's branches — so a vector
 * never surfaces a fact from elsewhere, however close; and only vectors of the
 * configured model (and its dimension) are compared.
 */
import { readAll, type Conn } from "@/db/client";
import { errorSummary } from "@/lib/ops/log";
import { RECALL_LIMIT, utcDay } from "@/lib/memory/rules";
import { NOT_PROPOSED_SQL, UNEXPIRED_SQL } from "@/lib/memory/rules-sql";
import type { MeaningLookup } from "@/lib/memory/ranked-recall";
import type { RecallBranch } from "@/lib/memory/store";
import { questionEmbedder } from "./provider";
import { embeddingsSettings } from "./settings";

export type Meaning =
  | { status: "off" } // no provider configured
  | { status: "failed"; reason: string } // down, slow, garbage: recall ranks by words and says so
  | { status: "ok"; nearest: { id: string; similarity: number }[] }; // nearest first, at most k

/**
 * The nearest-facts query for a number of branches: one kept statement per count.
 * The branches are `(scope, scope_ref) IN (…)` — the same as `(scope = ? AND
 * scope_ref = ?) OR …` — on facts_recall_idx, so each branch is one index range of
 * live facts; left to itself the planner walks the whole workspace instead.
 */
export const nearestSql = (branches: number) => `SELECT facts.id AS id,
      vector_distance_cos(fact_vectors.embedding, vector32(?)) AS distance
    FROM facts INDEXED BY facts_recall_idx CROSS JOIN fact_vectors ON fact_vectors.fact_id = facts.id
    WHERE facts.agent_id = ? AND facts.workspace_id = ? AND facts.forgotten_at IS NULL AND ${UNEXPIRED_SQL} AND ${NOT_PROPOSED_SQL}
      AND (facts.scope, facts.scope_ref) IN (VALUES ${Array(branches).fill("(?, ?)").join(", ")})
      AND fact_vectors.model = ? AND length(fact_vectors.embedding) = ?
    ORDER BY distance, facts.id
    LIMIT ?`;

/**
 * The k facts nearest `question` in meaning, of this agent, in this workspace,
 * in `branches` (recallBranches of the place), unexpired as of `today`. Never throws: without a provider
 * "off"; when it is down, slow or answers garbage, "failed" within its timeout
 * (at once while it rests after a failure).
 */
export async function nearestByMeaning(
  db: Conn,
  agentId: string,
  workspaceId: string,
  branches: readonly RecallBranch[],
  question: string,
  k: number = RECALL_LIMIT,
  today: string = utcDay(),
): Promise<Meaning> {
  let settings;
  try {
    settings = embeddingsSettings();
  } catch (error) {
    // The start refuses a wrong setting; this is a process whose environment changed under it.
    return { status: "failed", reason: errorSummary(error) };
  }
  if (!settings) return { status: "off" };
  const text = question.trim();
  if (!text || !branches.length || k < 1) return { status: "ok", nearest: [] };

  const asked = await questionEmbedder(settings).vectorOf(text);
  if (!asked.ok) return { status: "failed", reason: asked.reason };
  try {
    const rows = await readAll<{ id: string; distance: number | null }>(db, nearestSql(branches.length), [
      JSON.stringify(asked.vector),
      agentId,
      workspaceId,
      today,
      ...branches.flatMap((branch) => [branch.scope, branch.ref]),
      settings.model,
      // float32: four bytes a number.
      asked.vector.length * 4,
      Math.floor(k),
    ]);
    return {
      status: "ok",
      nearest: rows
        .filter((row) => row.distance !== null)
        .map((row) => ({ id: row.id, similarity: 1 - (row.distance as number) })),
    };
  } catch (error) {
    return { status: "failed", reason: `the vectors could not be read: ${errorSummary(error)}` };
  }
}

/**
 * Meaning as ranked recall asks for it (recallRanked's `meaning`), for one agent:
 * the nearest facts, or null when no provider is set or it failed, so recall ranks
 * by words and says so. The agent API and the Memory page's preview both use it.
 */
export function meaningFor(db: Conn, agentId: string, workspaceId: string): MeaningLookup {
  return async (branches, question, today) => {
    const meaning = await nearestByMeaning(db, agentId, workspaceId, branches, question, undefined, today);
    return meaning.status === "ok" ? meaning.nearest : null;
  };
}
