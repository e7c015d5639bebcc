/**
 * Every fact an agent may recall in a place — not just the newest 40 — for ranking by
 * the question. Read one recall branch at a time (recallBranches: one index range of
 * facts_recall_idx each, so the cost is the agent's facts in that scope, never the
 * corpus; an agent keeps at most MAX_FACTS), each with its word index built once.
 *
 * Branches are kept in memory per agent and memory version, the same version the
 * recall cache trusts (drizzle/0005's triggers bump it in the statement that changes a
 * fact, whoever makes the change): a forgotten, purged or corrected fact is gone from
 * the words before the next recall can read them. A fact also leaves by expiring, which
 * changes no row, so branches are kept per version *and* UTC day: at midnight they are
 * read again without the facts that expired, and `considered` (the lists' lengths)
 * never counts one.
 */
import { readAll, type Conn } from "@/db/client";
import { readConfig } from "@/lib/config";
import { recallable, utcDay, type Place } from "./rules";
import { FACT_COLUMNS, storedFact, type FactColumnsRow, type StoredFact } from "./fact-columns";
import { BRANCH_WHERE, branchArgs, recallBranches, type RecallBranch } from "./store";
import { VersionedCache, cacheFor } from "./versioned-cache";
import { WordIndex } from "./word-index";

/** One branch's live, unexpired facts in recall order (the index's own order: no sort). Parameters: branchArgs. */
const BRANCH_SQL = `SELECT ${FACT_COLUMNS} FROM facts WHERE ${BRANCH_WHERE} ORDER BY pinned DESC, updated_at DESC, id DESC`;

/**
 * What a kept fact costs in memory, roughly: its row's objects, its postings, its
 * line for the prompt section — about 2 KB with a sentence-long body (heap measured
 * after GC over 100k facts of ~70 characters: 1,983 bytes each).
 */
const BYTES_PER_FACT = 2048;

/** This process's word indexes for a database, within MNEMO_RECALL_INDEX_MB (0 keeps nothing); see versioned-cache.ts. */
function branchCache(db: Conn): VersionedCache<WordIndex> {
  return cacheFor("mnemoRecallBranches", db, () => new VersionedCache<WordIndex>(readConfig().MNEMO_RECALL_INDEX_MB * 2 ** 20));
}

async function readBranch(
  db: Conn,
  agentId: string,
  workspaceId: string,
  branch: RecallBranch,
  today: string,
): Promise<WordIndex> {
  const rows = await readAll<FactColumnsRow>(db, BRANCH_SQL, branchArgs(agentId, workspaceId, branch, today));
  return new WordIndex(rows.map(storedFact));
}

export type Candidates = {
  branches: RecallBranch[];
  /** One word index per branch; each index's facts are in recall order. */
  indexes: WordIndex[];
  /** The pure rule, checked once more for every fact that could reach the answer. */
  allowed: (fact: StoredFact) => boolean;
};

/**
 * The facts this agent may recall in this place, with their word indexes. With the
 * agent's memory version (API requests read it with their key) branches are kept and
 * reused until it changes or the UTC day turns; without one (the Memory page's preview)
 * they are read fresh. `today` decides expiry for the whole request.
 */
export async function recallCandidates(
  db: Conn,
  agentId: string,
  place: Place,
  version?: string,
  today: string = utcDay(),
): Promise<Candidates> {
  const branches = recallBranches(place);
  const cache = branchCache(db);
  const keptAt = `${version}\n${today}`;
  const indexes = await Promise.all(
    branches.map(async (branch) => {
      if (version === undefined) return readBranch(db, agentId, place.workspaceId, branch, today);
      const key = `${agentId}\n${place.workspaceId}\n${branch.scope}\n${branch.ref}`;
      const kept = cache.get(key, keptAt);
      if (kept) return kept;
      const index = await readBranch(db, agentId, place.workspaceId, branch, today);
      cache.set(key, keptAt, index, (index.facts.length + 1) * BYTES_PER_FACT);
      return index;
    }),
  );
  return { branches, indexes, allowed: (fact) => recallable(fact, place, today) };
}
