/**
 * What ranked recall reads for a question, and nothing more: the postings of the
 * question's terms in the place's recall branches (fact_terms, kept by drizzle/0015's
 * triggers in the statement that changes a fact), the place's count and length of
 * recallable facts, and then only the fact rows the answer can use — each through
 * BRANCH_WHERE, so the rules are in the SQL that reads them. The cost is the
 * question's postings and the answer's facts, never the place's facts — until a
 * branch's seeks have cost what one walk of its postings would: then it is read whole,
 * beside the questions and in steps (readWhole), and kept, and its later questions read
 * no postings at all (BranchStats).
 *
 * Postings carry a fact's last day and whether it is a proposal, so expired facts and
 * proposals are left out of the statistics as recall leaves them out. A branch's
 * count and length, its postings of the terms asked (empty lists too) and its vocabulary
 * (read for the typo rule, or with the branch read whole; once kept, it also says which
 * terms are worth a seek) are
 * kept per agent memory version and UTC day, the versions the recall cache trusts
 * (drizzle/0005): a fact also leaves by expiring, which changes no row.
 */
import { readAll, type Conn, type Db } from "@/db/client";
import { liveVersionOf } from "@/lib/live/memory-watcher";
import { errorSummary, log } from "@/lib/ops/log";
import { nextTurn } from "@/lib/ops/next-turn";
import { readConfig } from "@/lib/config";
import { readWide } from "@/db/reader";
import type { SqlArg } from "@/db/plain-sql";
import { utcDay, type Place } from "./rules";
import { CANDIDATE_COLUMNS, CANDIDATE_FIELDS, type CandidateFact, type CandidateRow } from "./fact-columns";
import { BRANCH_WHERE, branchArgs, inBranch, type RecallBranch } from "./store";
import type { Word } from "./terms";
import { VersionedCache, cacheFor } from "./versioned-cache";
import { keepMemos, keepsMemos } from "./row-memo";
import {
  PostingsBuilder,
  Vocabulary,
  joinPostings,
  mayBeTypos,
  NO_POSTINGS,
  postingCount,
  termsToRead,
  typoReach,
  type PlacePostings,
  type Posting,
  type Postings,
  type Words,
} from "./word-index";
import { wordnet } from "./lexicon";

/** The place's branches in recall_branches, by the key recall asks with; one index seek each. */
const branchesIn = (n: number) =>
  `b.agent_id = ? AND b.workspace_id = ? AND (b.scope, b.scope_ref) IN (VALUES ${Array(n).fill("(?, ?)").join(", ")})`;
/** Postings recall may use: not a proposal, not expired (the twin of UNEXPIRED_SQL, on the posting's copy). */
const USABLE = "p.proposed = 0 AND (p.valid_until IS NULL OR p.valid_until >= ?)";

/**
 * Each branch's recallable facts, counted with their total length off each fact's ''
 * posting; and the length of all its facts, proposals and expired ones too: what a
 * walk of its postings reads. Parameters: today, then placeArgs.
 */
const STATS_SQL = (n: number) => `SELECT scope, ref, sum(usable) AS n, total(usable * tf) AS total, total(tf) AS walk
  FROM (SELECT b.id AS branch, b.scope AS scope, b.scope_ref AS ref, p.tf AS tf, (${USABLE}) AS usable
    FROM recall_branches b CROSS JOIN fact_terms p ON p.branch = b.id AND p.term = ''
    WHERE ${branchesIn(n)})
  GROUP BY branch`;

/**
 * The place's postings of some terms, each naming its branch and its term by their places in the lists sought (the
 * VALUES' first column, json_each's key): a posting is then five numbers. Its branch's scope and ref and its term as
 * text were most of what SQLite wrote and JavaScript parsed for it (the statement ~64 → ~55 µs at a million facts).
 * Parameters: each branch's scope and ref, the agent, the workspace, the terms (a JSON array), today.
 */
const POSTINGS_SQL = (n: number) => `SELECT v.column1 AS branch, t.key AS term, p.fact_seq AS fact, p.tf AS tf, p.len AS length
  FROM (VALUES ${Array.from({ length: n }, (_, i) => `(${i}, ?, ?)`).join(", ")}) v
  CROSS JOIN recall_branches b ON b.agent_id = ? AND b.workspace_id = ? AND b.scope = v.column2 AND b.scope_ref = v.column3
  CROSS JOIN json_each(?) t
  CROSS JOIN fact_terms p ON p.branch = b.id AND p.term = t.value
  WHERE ${USABLE}`;

const ONE_BRANCH = `FROM recall_branches b CROSS JOIN fact_terms p ON p.branch = b.id
  WHERE b.agent_id = ? AND b.workspace_id = ? AND b.scope = ? AND b.scope_ref = ? AND p.term <> '' AND ${USABLE}`;
/** One branch's distinct terms. */
const VOCABULARY_SQL = `SELECT DISTINCT p.term AS term ${ONE_BRANCH}`;
/**
 * Postings a purchase reads a statement: a branch is read whole in steps of ~1 ms, the event loop let in between.
 * In one statement, a branch of 8,000 postings held the agent thread 7–44 ms at a million facts (BENCHMARKS.md),
 * and every question queued behind it waited that long.
 */
export const WHOLE_STEP = 1024;
/**
 * One branch's postings after (term, fact) — every one, in steps of WHOLE_STEP: the same walk as its vocabulary, with
 * each posting's fact and weights. Parameters: ONE_BRANCH's, then the last term and fact read ('' and -1 at first).
 */
const BRANCH_POSTINGS_SQL = `SELECT p.term AS term, p.fact_seq AS fact, p.tf AS tf, p.len AS length ${ONE_BRANCH}
  AND (p.term, p.fact_seq) > (?, ?) ORDER BY p.term, p.fact_seq LIMIT ${WHOLE_STEP}`;
/**
 * A posting row's columns, read as one JSON text (readWide): at a million facts most
 * postings are read afresh, and the driver's value per column per row cost ~35 % more
 * (BENCHMARKS.md). tf and len are sums of 1 and LABEL_WEIGHT (terms.ts), exact in JSON.
 */
const POSTING_FIELDS = ["term", "fact", "tf", "length"];
const VOCABULARY_FIELDS = ["term"];
const SOUGHT_POSTING_FIELDS = ["branch", ...POSTING_FIELDS];

const placeArgs = (agentId: string, place: Place, branches: readonly RecallBranch[]) => [
  agentId,
  place.workspaceId,
  ...branches.flatMap((branch) => [branch.scope, branch.ref]),
];

/**
 * What ranking questions keeps per database, MNEMO_QUESTION_CACHE_MB in all, in fixed
 * shares of 29: vocabularies 8, branches read whole 8, fact rows 8, postings 4, branch
 * counts 1. Each kind has a budget of its own, so that where places outnumber it (a
 * million facts asked in rotation) one kind pushes out only its own, never the others.
 * A cache holds only what questions read, so with ten thousand facts the process keeps
 * a few megabytes whatever the setting; at a million, the more of the places asked
 * often it keeps, the fewer rows each question reads afresh (BENCHMARKS.md).
 */
const questionCacheShare = (parts: number) => Math.floor((readConfig().MNEMO_QUESTION_CACHE_MB * 2 ** 20 * parts) / 29);

/** What a vocabulary costs in memory, roughly: its terms' strings, the array and the set (a branch's few thousand words). */
const BYTES_PER_TERM = 96;

/**
 * A branch's count and total length of recallable facts, and what seeking its postings
 * has cost since this version and day: once that reaches what reading the branch whole
 * would (`walk`: the length of all its facts, about a row per posting), it is read whole
 * and kept (readWhole), so a place asked again and again stops paying per question,
 * and one asked now and then never walks its branches — either way about twice what
 * knowing the future would have cost at most (the ski rental's rule: rent until the
 * rent paid would have bought it). The costs are estimates in rows, not timings.
 *
 * That rule assumes what is bought stays. Where more branches are asked in turn than
 * the cache of whole branches holds (a million facts, hundreds of agents), each one
 * bought pushed out one still in use and was itself pushed out before its next
 * question: in-process at 1M facts, a question's mean went from 1.2 ms to 2.2 ms as
 * the branches' seeks came due. So a branch is bought only if it would still be kept
 * when it is next asked: the time between its last two questions (`gap`) is shorter
 * than the cache keeps an unused entry (VersionedCache.keepsFor). The branches already
 * kept are then those asked often enough to stay, and they are not pushed out.
 */
type BranchStats = {
  n: number;
  total: number;
  walk: number;
  sought: number;
  /** When a question last asked of it (performance.now() on this thread). */
  askedAt: number;
  /** What it cost kept whole, once it has been read whole; before that, its length says at least how much. */
  wholeBytes?: number;
  /** While it is being read whole: no question buys it a second time meanwhile. */
  buying?: boolean;
};
/** A question's own view of when it asked and how long since the one before (stats are shared: another question moves them on). */
type Asked = { at: number; gap: number };

/** What one seek statement costs beyond its rows, in rows read whole (a branch read whole is ~1.7 µs a row, a seek ~100 µs). */
const SEEK_COST = 64;
/** A row found by a seek, against one read in a walk of the branch. */
const SOUGHT_ROW_COST = 2;

/** Branches' counts and lengths, a few bytes each: kept like vocabularies, so a question reads only its postings. */
function statsCache(db: Conn): VersionedCache<BranchStats> {
  return cacheFor("mnemoRecallBranchStats", db, () => new VersionedCache<BranchStats>(questionCacheShare(1)));
}

/** A branch's key in the caches of what ranking keeps. */
export const branchKey = (agentId: string, place: Place, branch: RecallBranch) =>
  `${agentId}\n${place.workspaceId}\n${branch.scope}\n${branch.ref}`;

/** Each branch's count and total length of recallable facts: kept per branch under the memory version and day, or read. */
async function branchStats(
  db: Conn,
  agentId: string,
  place: Place,
  branches: readonly RecallBranch[],
  version: string | undefined,
  today: string,
): Promise<{ stats: BranchStats[]; asked: Asked[] }> {
  const cache = version === undefined ? null : statsCache(db);
  const keptAt = `${version}\n${today}`;
  const kept = cache ? branches.map((branch) => cache.get(branchKey(agentId, place, branch), keptAt)) : [];
  const now = performance.now();
  // Read and moved on at once, before any await, so this question's gap is its own.
  const asked = kept.map((stats): Asked => ({ at: now, gap: stats ? now - stats.askedAt : Infinity }));
  for (const stats of kept) if (stats) stats.askedAt = now;
  if (cache && kept.every((stats) => stats !== undefined)) return { stats: kept as BranchStats[], asked };
  const rows = await readAll<{ scope: string; ref: string; n: number; total: number; walk: number }>(db, STATS_SQL(branches.length), [
    today,
    ...placeArgs(agentId, place, branches),
  ]);
  const stats = branches.map((branch, i) => {
    const row = rows.find((found) => inBranch(branch, found.scope, found.ref));
    // A branch still kept keeps what its seeks have cost, and when it was last asked.
    const stats = kept[i] ?? { n: Number(row?.n ?? 0), total: Number(row?.total ?? 0), walk: Number(row?.walk ?? 0), sought: 0, askedAt: now };
    cache?.set(branchKey(agentId, place, branch), keptAt, stats, 128);
    return stats;
  });
  return { stats, asked: branches.map((_, i) => asked[i] ?? { at: now, gap: Infinity }) };
}

/** What a kept posting list costs in memory, roughly: the entry, its key and its array, and each posting's three numbers. */
const BYTES_PER_POSTING_LIST = 240;
export const BYTES_PER_POSTING = 24;
/**
 * Postings kept per branch and term: the words people ask about in a place recur
 * (its subjects, its people, its tools), and a list kept is a list not read again
 * row by row. A term no fact here has is kept too, as an empty list. Any change to
 * the agent's facts changes the version, and the day is part of it (expiry).
 */
function postingsCache(db: Conn): VersionedCache<Postings> {
  return cacheFor("mnemoRecallPostings", db, () => new VersionedCache<Postings>(questionCacheShare(4)));
}

/** Vocabularies kept per database. */
function vocabularyCache(db: Conn): VersionedCache<Vocabulary> {
  return cacheFor("mnemoRecallVocabulary", db, () => new VersionedCache<Vocabulary>(questionCacheShare(8)));
}

/** Branches read whole kept per database (BYTES_PER_POSTING a posting): apart from the vocabularies, which spare a seek per question. */
function wholeCache(db: Conn): VersionedCache<Vocabulary> {
  return cacheFor("mnemoRecallWholeBranches", db, () => new VersionedCache<Vocabulary>(questionCacheShare(8)));
}

/** A branch's vocabulary if it is kept for this version and day (read whole, or just its terms); never read for it. */
function keptVocabulary(db: Conn, agentId: string, place: Place, branch: RecallBranch, version: string, today: string): Vocabulary | undefined {
  const key = branchKey(agentId, place, branch);
  const keptAt = `${version}\n${today}`;
  return wholeCache(db).get(key, keptAt) ?? vocabularyCache(db).get(key, keptAt);
}

/** A branch's vocabulary (its terms, for the typo rule): kept, whole or not, or read and kept. */
async function vocabularyOf(
  db: Conn,
  agentId: string,
  place: Place,
  branch: RecallBranch,
  version: string | undefined,
  today: string,
): Promise<Vocabulary> {
  const kept = version === undefined ? undefined : keptVocabulary(db, agentId, place, branch, version, today);
  if (kept) return kept;
  const args = [agentId, place.workspaceId, branch.scope, branch.ref, today];
  const vocabulary = new Vocabulary((await readWide<{ term: string }>(db, VOCABULARY_FIELDS, VOCABULARY_SQL, args)).map((row) => row.term));
  if (version !== undefined) vocabularyCache(db).set(branchKey(agentId, place, branch), `${version}\n${today}`, vocabulary, vocabularyBytes(vocabulary));
  return vocabulary;
}

/**
 * Reads a branch whole, WHOLE_STEP postings a statement with the event loop let in
 * between, and keeps it for this version and day; resolves to what it kept. Between
 * steps the agent's facts may change: then the steps may have read two states of the
 * branch, and the agent's version (read again at the end: triggers bump it with any
 * change to its facts, drizzle/0005) says so, and nothing is kept.
 */
export async function readWhole(
  db: Conn,
  agentId: string,
  place: Place,
  branch: RecallBranch,
  version: string,
  today: string,
  /** What runs between two steps: the event loop's turn (tests pass their own). */
  between: () => Promise<void> = nextTurn,
): Promise<Vocabulary | undefined> {
  const args = [agentId, place.workspaceId, branch.scope, branch.ref, today];
  const byTerm = new Map<string, PostingsBuilder>();
  let after: [string, number] = ["", -1];
  for (;;) {
    const rows = await readWide<{ term: string } & Posting>(db, POSTING_FIELDS, BRANCH_POSTINGS_SQL, [...args, ...after]);
    // The next step starts after the greatest (term, fact) read, whatever order the rows came back in.
    let [lastTerm, lastFact] = after;
    for (const { term, fact, tf, length } of rows) {
      let list = byTerm.get(term);
      if (!list) byTerm.set(term, (list = new PostingsBuilder()));
      list.add(fact, tf, length);
      if (term > lastTerm || (term === lastTerm && fact > lastFact)) [lastTerm, lastFact] = [term, fact];
    }
    if (rows.length < WHOLE_STEP) break;
    after = [lastTerm, lastFact];
    await between();
  }
  if ((await liveVersionOf(db, agentId)) !== version) return undefined;
  const vocabulary = new Vocabulary([...byTerm.keys()], new Map([...byTerm].map(([term, list]) => [term, list.build()])));
  wholeCache(db).set(branchKey(agentId, place, branch), `${version}\n${today}`, vocabulary, vocabularyBytes(vocabulary));
  return vocabulary;
}

/** Purchases being read (readWhole), each until it has settled. */
const underway = new Set<Promise<void>>();

/**
 * Lets a purchase run beside the questions. One that fails is not kept, and its branch's seeks go on: a purchase
 * only spares reads. A database closed under it (a test's, or the app's at exit) is not worth a line in the log.
 */
function purchase(db: Conn, reading: Promise<void>): void {
  const settled: Promise<void> = reading
    .catch((error: unknown) => {
      if (!(db as Partial<Db>).$client?.closed) log("warn", "recall.read_whole_failed", { error: errorSummary(error) });
    })
    .finally(() => underway.delete(settled));
  underway.add(settled);
}

/** Resolves once no purchase is being read (tests: what a question bought is kept before the next is asked). */
export async function purchasesSettled(): Promise<void> {
  while (underway.size) await Promise.all(underway);
}

/** What a vocabulary costs kept, roughly; read whole, each term also has its list (as a kept posting list does). */
function vocabularyBytes(vocabulary: Vocabulary): number {
  const perTerm = vocabulary.whole ? BYTES_PER_TERM + BYTES_PER_POSTING_LIST : BYTES_PER_TERM;
  return (vocabulary.terms.length + 1) * perTerm + vocabulary.postings * BYTES_PER_POSTING;
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
  // A term's postings from one branch are that branch's kept list itself; only a term found in several is copied.
  const byTerm = new Map<string, Postings>();
  const add = (term: string, postings: Postings) => {
    if (!postings.length) return;
    const list = byTerm.get(term);
    byTerm.set(term, list ? joinPostings(list, postings) : postings);
  };
  const cache = version === undefined ? null : postingsCache(db);
  const keptAt = `${version}\n${today}`;
  const keys = branches.map((branch) => branchKey(agentId, place, branch));
  const { stats, asked } = await branchStats(db, agentId, place, branches, version, today);
  // Each branch's vocabulary if kept, read whole or for the typo rule (looked up once: each look moves it in its cache).
  const kept = branches.map((branch) => (version === undefined ? undefined : keptVocabulary(db, agentId, place, branch, version, today)));
  // A branch kept whole serves every term. One whose seeks have cost as much as reading it whole is bought: read whole
  // beside the questions (readWhole), not in this one's way — this question seeks as before.
  const wholes = branches.map((branch, i): Vocabulary | undefined => {
    if (version === undefined) return undefined;
    if (kept[i]?.whole) return kept[i];
    if (stats[i].buying) return undefined;
    const { sought, walk, wholeBytes } = stats[i];
    if (sought === 0 || sought < walk) return undefined;
    // Not bought if it would be pushed out before its next question; its seeks go on until it would stay.
    // Judged as of this question's start, so what this question itself used counts as in use.
    const { at, gap } = asked[i];
    if (gap >= wholeCache(db).keepsFor(wholeBytes ?? walk * BYTES_PER_POSTING, at)) return undefined;
    // Bought: should it not be kept, or be evicted, seeks must earn it again (else each question would read it
    // whole). Two branches of one place bought by one question are each judged without the other kept yet; the
    // cache's budget still holds. Its first step waits for the event loop's next turn too, so none is this question's.
    stats[i].sought = 0;
    stats[i].buying = true;
    purchase(
      db,
      nextTurn()
        .then(() => readWhole(db, agentId, place, branch, version, today))
        .then((vocabulary) => {
          if (vocabulary) stats[i].wholeBytes = vocabularyBytes(vocabulary);
        })
        .finally(() => {
          stats[i].buying = false;
        }),
    );
    return undefined;
  });
  const read = async (terms: readonly string[]) => {
    // Each branch's kept postings of a term serve as they are; only the terms some branch lacks are read.
    const missing = new Set<string>();
    const lacking = keys.map(() => new Set<string>());
    for (const term of terms) {
      keys.forEach((key, i) => {
        const list = wholes[i]?.postingsOf(term) ?? cache?.get(`${key}\n${term}`, keptAt);
        if (list) add(term, list);
        else {
          lacking[i].add(term);
          missing.add(term);
        }
      });
    }
    if (!missing.size) return;
    const seeking = branches.flatMap((_, i) => (lacking[i].size ? [i] : []));
    const sought = [...missing];
    const rows = await readWide<{ branch: number; term: number } & Posting>(db, SOUGHT_POSTING_FIELDS, POSTINGS_SQL(seeking.length), [
      ...seeking.flatMap((i) => [branches[i].scope, branches[i].ref]),
      agentId,
      place.workspaceId,
      JSON.stringify(sought),
      today,
    ]);
    const read = keys.map(() => new Map<string, PostingsBuilder>());
    for (const { branch, term: at, fact, tf, length } of rows) {
      const i = seeking[branch];
      const term = sought[at];
      if (!lacking[i].has(term)) continue; // kept already, and added above
      let list = read[i].get(term);
      if (!list) read[i].set(term, (list = new PostingsBuilder()));
      list.add(fact, tf, length);
    }
    keys.forEach((key, i) => {
      if (!lacking[i].size) return;
      let found = 0;
      for (const term of lacking[i]) {
        const postings = read[i].get(term)?.build() ?? NO_POSTINGS;
        found += postingCount(postings);
        add(term, postings);
        cache?.set(`${key}\n${term}`, keptAt, postings, BYTES_PER_POSTING_LIST + postingCount(postings) * BYTES_PER_POSTING);
      }
      // The statement's own cost is shared by the branches it sought in.
      stats[i].sought += SEEK_COST / seeking.length + SOUGHT_ROW_COST * found;
    });
  };
  // Where every branch's vocabulary is kept already (read whole, or for the typo rule), it says which of WordNet's
  // dozen other words per question word are worth a seek at all. It is never read for this alone: that is a walk
  // of the branch's postings, which a kept posting list (empty ones included) spares anyway.
  const held = branches.map((_, i) => wholes[i] ?? kept[i]);
  const known = held.length && held.every((vocabulary) => vocabulary !== undefined) ? held : null;
  const worthReading = (term: string) => !known || known.some((vocabulary) => vocabulary!.has(term));
  await read(question.length ? termsToRead(question, words).filter(worthReading) : []);

  // Typos: only words the place and WordNet both miss look for their neighbours, in the branches' vocabularies.
  const unknown = mayBeTypos(
    question.filter(({ term }) => !byTerm.has(term)),
    words,
  );
  const vocabularies = unknown.length
    ? await Promise.all(branches.map((branch, i) => held[i] ?? vocabularyOf(db, agentId, place, branch, version, today)))
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
    count: stats.reduce((sum, branch) => sum + branch.n, 0),
    totalLength: stats.reduce((sum, branch) => sum + branch.total, 0),
    postingsOf: (term) => byTerm.get(term) ?? NO_POSTINGS,
    near,
  };
}

/** Fact rows with their seq, each read through BRANCH_WHERE: two dozen columns a row, so read as one JSON text (readWide). */
const readRows = (db: Conn, text: string, args: readonly SqlArg[]) => readWide<CandidateRow>(db, CANDIDATE_FIELDS, text, args);
const anyBranch = (n: number) => Array(n).fill(`(${BRANCH_WHERE})`).join(" OR ");

/** Every fact of the branches (the Memory page's preview lists every left-out fact). Parameters: branchArgs per branch. */
const ALL_SQL = (n: number) =>
  Array(n)
    .fill(`SELECT * FROM (SELECT ${CANDIDATE_COLUMNS} FROM facts WHERE ${BRANCH_WHERE})`)
    .join(" UNION ALL ");

/** The pinned facts of the branches: each the head of its index range. */
const PINNED_SQL = (n: number) =>
  Array(n)
    .fill(`SELECT * FROM (SELECT ${CANDIDATE_COLUMNS} FROM facts WHERE ${BRANCH_WHERE} AND pinned = 1)`)
    .join(" UNION ALL ");

/** Facts by seq (a JSON array), each a rowid lookup, kept only if a branch's rules pass. */
const BY_SEQ_SQL = (n: number) =>
  `SELECT ${CANDIDATE_COLUMNS} FROM json_each(?) j CROSS JOIN facts ON facts.seq = j.value WHERE ${anyBranch(n)}`;
/** Facts by id (meaning's nearest), likewise. */
const BY_ID_SQL = (n: number) =>
  `SELECT ${CANDIDATE_COLUMNS} FROM json_each(?) j CROSS JOIN facts ON facts.id = j.value WHERE ${anyBranch(n)}`;

/**
 * The newest unpinned facts of each branch, off facts_recall_idx in its order: the
 * recency fill. Parameters per branch: branchArgs, limit.
 */
const NEWEST_SQL = (n: number) =>
  Array(n)
    .fill(
      `SELECT * FROM (SELECT ${CANDIDATE_COLUMNS} FROM facts WHERE ${BRANCH_WHERE} AND pinned = 0
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
  /** How many of the newest non-matching facts per branch the fill may need; 0 reads none. */
  newest: number;
  /**
   * How deep each branch's recency list is read: deep enough that leaving out the
   * matches and the nearest still leaves `newest` (the answer's walk, plus the nearest).
   * The same for every question of a place, so the list is kept and read once.
   */
  newestDepth: number;
};

/**
 * Fact rows an agent's recent answers used, per agent memory version and UTC day: the
 * same facts answer many questions (pinned ones every time), and a row costs more to
 * read than the postings that found it. Only facts read through BRANCH_WHERE are kept,
 * each used again only when this place's own postings name it (or as a branch's pinned
 * fact); any change to the agent's facts changes the version, and the rule is checked
 * again for every fact on its way to the answer (ranking.ts).
 */
type KeptRows = {
  bySeq: Map<number, CandidateFact>;
  pinned: Map<string, number[]>;
  newest: Map<string, number[]>;
  /**
   * Facts a question matched (by words or meaning) and read once under this version:
   * such a row is kept only when a later question reads it again (and there is room to
   * spare: readCandidates). Every place's pinned
   * facts and recency list serve each question, but which facts a question matches
   * depends on the question: where few of them recur (a million facts, hundreds of
   * agents) each row kept on its first read was held only to be pushed out unused, and
   * the collector copied every one of them twice on the way (BENCHMARKS.md). A seq is
   * a small integer, so this set costs the collector nothing per entry.
   */
  readOnce: Set<number>;
  /**
   * How many of the kept rows also keep the values an answer works out from them
   * (row-memo.ts): each costs more than its row, so they take only room to spare.
   */
  memos: number;
  /** What the cache counts this entry at (keptBytes at its last set); 0 before it is kept. */
  bytes: number;
};
/** What a kept row costs in memory, roughly: its object and two dozen strings as read (~600 bytes at a million facts), its slot in bySeq. */
export const BYTES_PER_ROW = 640;
/** What a kept row's memos add, roughly: its wire JSON (~580 bytes) and its sized prompt line (~230). */
export const BYTES_PER_MEMOS = 800;
/** What a seq in readOnce costs, roughly: its slot in the set's table. */
const BYTES_PER_SEQ = 16;
/** What a place's kept rows cost, as the cache counts them. */
const keptBytes = (kept: KeptRows) =>
  (kept.bySeq.size + 1) * BYTES_PER_ROW + kept.memos * BYTES_PER_MEMOS + kept.readOnce.size * BYTES_PER_SEQ;

function rowsCache(db: Conn): VersionedCache<KeptRows> {
  return cacheFor("mnemoRecallRows", db, () => new VersionedCache<KeptRows>(questionCacheShare(8)));
}

/** The facts the answer can use, each once, with its seq: every one read through BRANCH_WHERE. */
export async function readCandidates(
  db: Conn,
  agentId: string,
  place: Place,
  branches: readonly RecallBranch[],
  want: FactsToRead,
  today: string,
  version?: string,
): Promise<CandidateFact[]> {
  const n = branches.length;
  const perBranch = branches.map((branch) => branchArgs(agentId, place.workspaceId, branch, today));
  const flat = perBranch.flat();
  const cache = version === undefined || want.all ? null : rowsCache(db);
  const key = `${agentId}\n${place.workspaceId}`;
  const keptAt = `${version}\n${today}`;
  const kept: KeptRows = cache?.get(key, keptAt) ?? { bySeq: new Map(), pinned: new Map(), newest: new Map(), readOnce: new Set(), memos: 0, bytes: 0 };
  const keys = branches.map((branch) => branchKey(agentId, place, branch));

  const bySeq = new Map<number, CandidateFact>();
  const keep = (fact: CandidateFact) => {
    if (!bySeq.has(fact.seq)) bySeq.set(fact.seq, fact); // the same fact read twice is one fact
  };
  /** Matched rows read a second time, and seqs read the first: they wait for room to spare (see the end). */
  const secondReads: CandidateFact[] = [];
  const firstReads: number[] = [];
  /**
   * Rows read, as kept facts (one object per fact for the version's life): pinned and
   * newest rows at once; `matched` rows from their second read, in room to spare.
   */
  const stored = (rows: CandidateRow[], matched = false) =>
    rows.map((row): CandidateFact => {
      const { seq } = row;
      const fact = kept.bySeq.get(seq) ?? (row as unknown as CandidateFact);
      // `row` is the reader's own object: made a StoredFact in place rather than copied (storedFact).
      fact.pinned = !!row.pinned;
      if (kept.bySeq.has(seq)) return fact;
      if (!matched) kept.bySeq.set(seq, fact);
      else if (kept.readOnce.has(seq)) secondReads.push(fact);
      else firstReads.push(seq);
      return fact;
    });
  /** Rows read, each a candidate of this answer. */
  const take = (rows: CandidateRow[], matched = false) => {
    const read = stored(rows, matched);
    for (const fact of read) keep(fact);
    return read;
  };

  if (want.all) take(await readRows(db, ALL_SQL(n), flat));
  else {
    const pinnedKept = keys.map((branch) => kept.pinned.get(branch));
    if (cache && pinnedKept.every((seqs) => seqs !== undefined)) {
      for (const seq of pinnedKept.flat()) keep(kept.bySeq.get(seq!)!);
    } else {
      const read = take(await readRows(db, PINNED_SQL(n), flat));
      branches.forEach((branch, i) =>
        kept.pinned.set(
          keys[i],
          read.filter((fact) => inBranch(branch, fact.scope, fact.scopeRef)).map(({ seq }) => seq),
        ),
      );
    }
    const missing: number[] = [];
    for (const seq of want.matches) {
      const fact = cache && kept.bySeq.get(seq);
      if (fact) keep(fact);
      else missing.push(seq);
    }
    if (missing.length) take(await readRows(db, BY_SEQ_SQL(n), [JSON.stringify(missing), ...flat]), true);
    // Meaning's nearest not taken already (pinned, or matched by words too): a fact is read once per question, so a
    // matched row's first read is never counted as its second.
    const taken = new Set([...bySeq.values()].map((fact) => fact.id));
    const nearestUnread = want.nearest.filter((id) => !taken.has(id));
    if (nearestUnread.length) take(await readRows(db, BY_ID_SQL(n), [JSON.stringify(nearestUnread), ...flat]), true);
    if (want.newest > 0) {
      const depth = Math.max(want.newest, want.newestDepth);
      const newestKeys = keys.map((branch) => `${branch}\n${depth}`);
      let lists = newestKeys.map((branch) => kept.newest.get(branch));
      if (!cache || !lists.every((seqs) => seqs?.every((seq) => kept.bySeq.has(seq)))) {
        const read = stored(await readRows(db, NEWEST_SQL(n), perBranch.flatMap((args) => [...args, depth])));
        lists = branches.map((branch, i) => {
          const seqs = read.filter((fact) => inBranch(branch, fact.scope, fact.scopeRef)).map(({ seq }) => seq);
          kept.newest.set(newestKeys[i], seqs);
          return seqs;
        });
      }
      // The fill leaves out the matches and the nearest: they have their own place in the order.
      const matched = new Set(want.matched);
      const nearest = new Set(want.nearest);
      for (const seqs of lists) {
        let taken = 0;
        for (const seq of seqs!) {
          if (taken === want.newest) break;
          const fact = kept.bySeq.get(seq)!;
          if (matched.has(seq) || nearest.has(fact.id)) continue;
          keep(fact);
          taken++;
        }
      }
    }
  }
  if (cache) {
    // What matched rows may take: room the budget has to spare once this entry holds every pinned and newest row it
    // read, so that they never push anything out. Those rows serve every question asked in the place, a matched row
    // only a later question that matches it again; at a million facts, where the places asked in turn fill the
    // budget, matched rows pushing out whole entries made 18 % of questions read and size every row again
    // (BENCHMARKS.md).
    let grows = keptBytes(kept) - kept.bytes;
    for (const fact of secondReads) {
      if (cache.keepsFor(grows + BYTES_PER_ROW) !== Infinity) break;
      kept.readOnce.delete(fact.seq);
      kept.bySeq.set(fact.seq, fact);
      grows += BYTES_PER_ROW;
    }
    for (const seq of firstReads) {
      if (cache.keepsFor(grows + BYTES_PER_SEQ) !== Infinity) break;
      kept.readOnce.add(seq);
      grows += BYTES_PER_SEQ;
    }
    // Then the values this answer works out from its kept rows, in what room is left: worth less than a row (they
    // save ~2.5 µs a use, a row read ~5), they are kept wherever everything fits (ten thousand facts) and given up
    // first where it does not (a million: BENCHMARKS.md).
    for (const fact of bySeq.values()) {
      if (keepsMemos(fact) || kept.bySeq.get(fact.seq) !== fact) continue;
      if (cache.keepsFor(grows + BYTES_PER_MEMOS) !== Infinity) break;
      if (!keepMemos(fact)) continue;
      kept.memos++;
      grows += BYTES_PER_MEMOS;
    }
    kept.bytes = keptBytes(kept);
    cache.set(key, keptAt, kept, kept.bytes);
  }
  return [...bySeq.values()];
}
