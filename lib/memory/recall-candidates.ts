/**
 * What ranked recall reads for a question, and nothing more: the postings of the
 * question's terms in the place's recall branches (fact_terms, kept by drizzle/0015's
 * triggers in the statement that changes a fact), the place's count and length of
 * recallable facts, and then only the fact rows the answer can use — each through
 * BRANCH_WHERE, so the rules are in the SQL that reads them. The cost is the
 * question's postings and the answer's facts, never the place's facts.
 *
 * Postings carry a fact's last day and whether it is a proposal, so expired facts and
 * proposals are left out of the statistics as recall leaves them out. A branch's
 * vocabulary (for the typo rule, needed only for words nobody knows) is kept per
 * agent memory version and UTC day, the versions the recall cache trusts
 * (drizzle/0005): a fact also leaves by expiring, which changes no row.
 */
import { readAll, type Conn } from "@/db/client";
import { utcDay, type Place } from "./rules";
import { FACT_COLUMNS, storedFact, type FactColumnsRow, type StoredFact } from "./fact-columns";
import { BRANCH_WHERE, branchArgs, type RecallBranch } from "./store";
import type { Word } from "./terms";
import { VersionedCache, cacheFor } from "./versioned-cache";
import { Vocabulary, mayBeTypos, termsToRead, typoReach, type PlacePostings, type Posting, type Words } from "./word-index";
import { wordnet } from "./lexicon";

/** The place's branches in recall_branches, by the key recall asks with; one index seek each. */
const branchesIn = (n: number) =>
  `b.agent_id = ? AND b.workspace_id = ? AND (b.scope, b.scope_ref) IN (VALUES ${Array(n).fill("(?, ?)").join(", ")})`;
/** Postings recall may use: not a proposal, not expired (the twin of UNEXPIRED_SQL, on the posting's copy). */
const USABLE = "p.proposed = 0 AND (p.valid_until IS NULL OR p.valid_until >= ?)";

/** The place's recallable facts, counted with their total length off each fact's '' posting. */
const STATS_SQL = (n: number) => `SELECT count(*) AS n, total(p.tf) AS total
  FROM recall_branches b CROSS JOIN fact_terms p ON p.branch = b.id AND p.term = ''
  WHERE ${branchesIn(n)} AND ${USABLE}`;

/** The place's postings of some terms (a JSON array). */
const POSTINGS_SQL = (n: number) => `SELECT p.term AS term, p.fact_seq AS fact, p.tf AS tf, p.len AS length
  FROM recall_branches b CROSS JOIN fact_terms p ON p.branch = b.id AND p.term IN (SELECT value FROM json_each(?))
  WHERE ${branchesIn(n)} AND ${USABLE}`;

/** One branch's distinct terms, for the typo rule. */
const VOCABULARY_SQL = `SELECT DISTINCT p.term AS term
  FROM recall_branches b CROSS JOIN fact_terms p ON p.branch = b.id
  WHERE b.agent_id = ? AND b.workspace_id = ? AND b.scope = ? AND b.scope_ref = ? AND p.term <> '' AND ${USABLE}`;

const placeArgs = (agentId: string, place: Place, branches: readonly RecallBranch[]) => [
  agentId,
  place.workspaceId,
  ...branches.flatMap((branch) => [branch.scope, branch.ref]),
];

/** What a vocabulary costs in memory, roughly: its terms' strings and the array (a branch's few thousand words). */
const BYTES_PER_TERM = 64;
/** Vocabularies kept per database: only words nobody knows read them, so a small budget serves. */
const VOCABULARY_BUDGET = 32 * 2 ** 20;

function vocabularyCache(db: Conn): VersionedCache<Vocabulary> {
  return cacheFor("mnemoRecallVocabulary", db, () => new VersionedCache<Vocabulary>(VOCABULARY_BUDGET));
}

async function vocabularyOf(
  db: Conn,
  agentId: string,
  place: Place,
  branch: RecallBranch,
  version: string | undefined,
  today: string,
): Promise<Vocabulary> {
  const read = async () => {
    const rows = await readAll<{ term: string }>(db, VOCABULARY_SQL, [agentId, place.workspaceId, branch.scope, branch.ref, today]);
    return new Vocabulary(rows.map((row) => row.term));
  };
  if (version === undefined) return read();
  const cache = vocabularyCache(db);
  const key = `${agentId}\n${place.workspaceId}\n${branch.scope}\n${branch.ref}`;
  const keptAt = `${version}\n${today}`;
  const kept = cache.get(key, keptAt);
  if (kept) return kept;
  const vocabulary = await read();
  cache.set(key, keptAt, vocabulary, (vocabulary.terms.length + 1) * BYTES_PER_TERM);
  return vocabulary;
}

/**
 * The place's statistics and its postings of the question's terms (its own, WordNet's
 * other words for them, and for unknown words the place's terms a typo away), ready
 * for scoreByWords. `count` is also what recall calls `considered`.
 */
export async function placePostings(
  db: Conn,
  agentId: string,
  place: Place,
  branches: readonly RecallBranch[],
  question: readonly Word[],
  version?: string,
  today: string = utcDay(),
  words: Words = wordnet,
): Promise<PlacePostings> {
  const args = placeArgs(agentId, place, branches);
  const byTerm = new Map<string, Posting[]>();
  const read = async (terms: readonly string[]) => {
    if (!terms.length) return;
    const rows = await readAll<{ term: string } & Posting>(db, POSTINGS_SQL(branches.length), [JSON.stringify(terms), ...args, today]);
    for (const { term, fact, tf, length } of rows) {
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = []));
      list.push({ fact, tf, length });
    }
  };
  const [[stats]] = await Promise.all([
    readAll<{ n: number; total: number }>(db, STATS_SQL(branches.length), [...args, today]),
    read(question.length ? termsToRead(question, words) : []),
  ]);

  // Typos: only words the place and WordNet both miss look at the vocabulary.
  const unknown = mayBeTypos(question, words).filter(({ term }) => !byTerm.has(term));
  const vocabularies = unknown.length
    ? await Promise.all(branches.map((branch) => vocabularyOf(db, agentId, place, branch, version, today)))
    : [];
  const near = (term: string, most: number) => {
    const found = new Map<string, number>();
    for (const vocabulary of vocabularies) for (const [other, distance] of vocabulary.near(term, most)) found.set(other, distance);
    return found;
  };
  const typoTerms = new Set<string>();
  for (const { term } of unknown) for (const other of near(term, typoReach(term)).keys()) if (!byTerm.has(other)) typoTerms.add(other);
  await read([...typoTerms]);

  return {
    count: Number(stats?.n ?? 0),
    totalLength: Number(stats?.total ?? 0),
    postingsOf: (term) => byTerm.get(term) ?? [],
    near,
  };
}

/** A fact as read for ranking, with its seq (what postings name it by). */
type SeqRow = FactColumnsRow & { seq: number };

const WITH_SEQ = `${FACT_COLUMNS}, facts.seq AS seq`;
const anyBranch = (n: number) => Array(n).fill(`(${BRANCH_WHERE})`).join(" OR ");

/** Every fact of the branches (the Memory page's preview lists every left-out fact). Parameters: branchArgs per branch. */
const ALL_SQL = (n: number) =>
  Array(n)
    .fill(`SELECT * FROM (SELECT ${WITH_SEQ} FROM facts WHERE ${BRANCH_WHERE})`)
    .join(" UNION ALL ");

/** The pinned facts of the branches: each the head of its index range. */
const PINNED_SQL = (n: number) =>
  Array(n)
    .fill(`SELECT * FROM (SELECT ${WITH_SEQ} FROM facts WHERE ${BRANCH_WHERE} AND pinned = 1)`)
    .join(" UNION ALL ");

/** Facts by seq (a JSON array), each a rowid lookup, kept only if a branch's rules pass. */
const BY_SEQ_SQL = (n: number) =>
  `SELECT ${WITH_SEQ} FROM json_each(?) j CROSS JOIN facts ON facts.seq = j.value WHERE ${anyBranch(n)}`;
/** Facts by id (meaning's nearest), likewise. */
const BY_ID_SQL = (n: number) =>
  `SELECT ${WITH_SEQ} FROM json_each(?) j CROSS JOIN facts ON facts.id = j.value WHERE ${anyBranch(n)}`;

/**
 * The newest unpinned facts of each branch that are not matches (seqs and ids as JSON arrays), off
 * facts_recall_idx in its order: the recency fill. Parameters per branch: branchArgs, seqs, ids, limit.
 */
const NEWEST_SQL = (n: number) =>
  Array(n)
    .fill(
      `SELECT * FROM (SELECT ${WITH_SEQ} FROM facts WHERE ${BRANCH_WHERE} AND pinned = 0
        AND facts.seq NOT IN (SELECT value FROM json_each(?)) AND facts.id NOT IN (SELECT value FROM json_each(?))
        ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ?)`,
    )
    .join(" UNION ALL ");

export type FactsToRead = {
  /** Every fact of the branches: the preview's left-out list. */
  all: boolean;
  /** Facts that matched by words, by seq: read whole. */
  matches: readonly number[];
  /** Facts that matched, by seq, whether read or not: the recency fill leaves them out. */
  matched: readonly number[];
  /** Facts near by meaning, by id. */
  nearest: readonly string[];
  /** How many of the newest non-matching facts per branch the fill may need. */
  newest: number;
};

/** The facts the answer can use, each once, with its seq: every one read through BRANCH_WHERE. */
export async function readCandidates(
  db: Conn,
  agentId: string,
  place: Place,
  branches: readonly RecallBranch[],
  want: FactsToRead,
  today: string,
): Promise<{ facts: StoredFact[]; seqOf: Map<StoredFact, number> }> {
  const n = branches.length;
  const perBranch = branches.map((branch) => branchArgs(agentId, place.workspaceId, branch, today));
  const flat = perBranch.flat();
  const reads: Promise<SeqRow[]>[] = [];
  if (want.all) reads.push(readAll<SeqRow>(db, ALL_SQL(n), flat));
  else {
    reads.push(readAll<SeqRow>(db, PINNED_SQL(n), flat));
    if (want.matches.length) reads.push(readAll<SeqRow>(db, BY_SEQ_SQL(n), [JSON.stringify(want.matches), ...flat]));
    if (want.nearest.length) reads.push(readAll<SeqRow>(db, BY_ID_SQL(n), [JSON.stringify(want.nearest), ...flat]));
    const [seqs, ids] = [JSON.stringify(want.matched), JSON.stringify(want.nearest)];
    reads.push(readAll<SeqRow>(db, NEWEST_SQL(n), perBranch.flatMap((args) => [...args, seqs, ids, want.newest])));
  }
  const bySeq = new Map<number, StoredFact>();
  const seqOf = new Map<StoredFact, number>();
  for (const rows of await Promise.all(reads)) {
    for (const { seq, ...row } of rows) {
      if (bySeq.has(seq)) continue; // the same fact read twice is one fact
      const fact = storedFact(row);
      bySeq.set(seq, fact);
      seqOf.set(fact, seq);
    }
  }
  return { facts: [...bySeq.values()], seqOf };
}
