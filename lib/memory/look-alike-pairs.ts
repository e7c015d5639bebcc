/**
 * Look-alike pairs (issue #15): when a fact is kept, the live facts and proposals of
 * the same agent, scope and place that read almost like it (look-alikes.ts scores
 * them) are stored in fact_look_alikes in the write's own transaction. The answer to
 * remember lists them as `similar`; the Memory page says "Looks like …" on the new
 * fact until someone replaces the older one, keeps both (the pair goes) or forgets
 * either (a forgotten fact's pairs are not shown; purging it cascades them away).
 *
 * Meaning (embeddings) cannot be used at write time: the new fact has no vector until
 * the embedder stores one, after the answer has left, so `similar` is by words only.
 * Meaning pairs are added when the vector is stored (pairByMeaning, called by
 * lib/embeddings/embedder.ts in the same transaction): the page may then say
 * "Looks like …" for a paraphrase that shares few words; nothing more reaches the agent.
 */
import { readAll, writeTransaction, type Conn, type SqlPart, type Writes } from "@/db/client";
import { nowIso } from "@/lib/ids";
import { LookAlikeIndex, MAX_LOOK_ALIKES, type LookAlike } from "./look-alikes";
import { foldedWords, STOP_WORDS, termOf } from "./terms";
import { recallable, type FactScope, type Place, type Scope } from "./rules";
import { retireReplaced } from "./replace";
import { changeableSql, UNEXPIRED_SQL, visibleSql, type ViewerRef } from "./rules-sql";
import type { PersonActor } from "./writes";

/** A look-alike found for a new fact: the other fact's id, text and score, and whether it is a proposal. */
export type FoundLookAlike = LookAlike & { proposedAt: string | null };

/** The new fact, as the shortlist and the pairs need it. */
export type PairedFact = {
  id: string;
  agentId: string;
  workspaceId: string;
  scope: Scope;
  scopeRef: string;
  body: string;
};

/**
 * The most facts scored for one new fact. The shortlist is ordered by how many of the new
 * fact's rarest terms each shares, and at most MAX_LOOK_ALIKES are reported, so the best
 * hundred hold them; each costs ~4 µs inside the write's transaction (its features ~3, its score ~1).
 */
const SHORTLIST_LIMIT = 100;
/** Stop adding terms to the shortlist's once their postings pass this many (the rarest always goes in). */
const SHORTLIST_POSTINGS = 2_000;
/**
 * A pair fires at LOOK_ALIKE_THRESHOLD with at most 0.3 from characters, so their words'
 * Dice is at least ~0.43: a look-alike of a fact with n content terms shares at least
 * ~0.27·n of them (typos aside). Any n − m + 1 of its terms then meet every fact that
 * shares m: the rarest ones are read, the commonest left out.
 */
const SHARED_SHARE = 0.27;

/**
 * Each content term of the new fact with how many facts of its branch hold it, off
 * fact_terms' key (one index range per term; the branch's postings, never its facts).
 * Parameters: the terms as a JSON array, agent, workspace, scope, scope_ref.
 */
const TERM_COUNTS_SQL = `SELECT b.id AS branch, t.value AS term,
    (SELECT count(*) FROM fact_terms p WHERE p.branch = b.id AND p.term = t.value) AS facts
  FROM json_each(?) t,
    (SELECT id FROM recall_branches WHERE agent_id = ? AND workspace_id = ? AND scope = ? AND scope_ref = ?) b`;

/**
 * The branch's other live, unexpired facts and proposals holding the chosen terms, those
 * sharing most first. Postings exist only for live facts (drizzle/0015's triggers); the
 * fact's own columns are checked again, each fact read by its key (CROSS JOIN keeps the
 * shortlist outermost, not a walk of the branch). Parameters: branch, terms (JSON), today, limit,
 * the new fact's id, agent, workspace, scope, scope_ref.
 */
const SHORTLIST_SQL = `SELECT facts.id AS id, facts.body AS body, facts.body_key AS key, facts.proposed_at AS proposedAt
  FROM (SELECT p.fact_seq AS seq, count(*) AS shared FROM fact_terms p
      WHERE p.branch = ? AND p.term IN (SELECT value FROM json_each(?)) AND (p.valid_until IS NULL OR p.valid_until >= ?)
      GROUP BY p.fact_seq ORDER BY shared DESC, p.fact_seq DESC LIMIT ?) s
    CROSS JOIN facts ON facts.seq = s.seq
  WHERE facts.id <> ? AND facts.agent_id = ? AND facts.workspace_id = ? AND facts.scope = ? AND facts.scope_ref = ?
    AND facts.forgotten_at IS NULL`;

/** The shortlist's statements, for the test that shows their plans seek and never scan. */
export const SHORTLIST_STATEMENTS = { termCounts: TERM_COUNTS_SQL, shortlist: SHORTLIST_SQL } as const;

const PAIR_SQL = "INSERT OR IGNORE INTO fact_look_alikes (fact_id, other_id, score) VALUES (?, ?, ?)";

/** The words of a text that can make it a look-alike, as fact_terms keys them (terms.ts), each once. */
function contentTerms(body: string): string[] {
  const terms = new Set<string>();
  for (const word of foldedWords(body)) if (!STOP_WORDS.has(word)) terms.add(termOf(word));
  return [...terms];
}

/** The terms to shortlist by: the rarest, as many as it takes to meet every likely look-alike, within the postings cap. */
function rarestTerms(counted: { term: string; facts: number }[]): string[] {
  const sorted = [...counted].sort((x, y) => x.facts - y.facts);
  const needed = sorted.length - Math.max(1, Math.ceil(SHARED_SHARE * sorted.length)) + 1;
  const chosen: string[] = [];
  let postings = 0;
  for (const { term, facts } of sorted) {
    if (chosen.length >= needed || (chosen.length > 0 && postings + facts > SHORTLIST_POSTINGS)) break;
    chosen.push(term);
    postings += facts;
  }
  return chosen;
}

/**
 * Finds the look-alikes of a fact just kept and stores the pairs, in the caller's
 * write transaction. Best first, at most MAX_LOOK_ALIKES; never the fact itself nor
 * its twin (dedupe refreshed that instead of keeping a new fact).
 */
export async function pairLookAlikes(writes: Writes, fact: PairedFact, today: string): Promise<FoundLookAlike[]> {
  const terms = contentTerms(fact.body);
  if (!terms.length) return [];
  const branchKey = [fact.agentId, fact.workspaceId, fact.scope, fact.scopeRef];
  const counted = await writes.all<{ branch: number; term: string; facts: number }>(TERM_COUNTS_SQL, [
    JSON.stringify(terms),
    ...branchKey,
  ]);
  if (!counted.length) return [];
  // Every fact's postings include the new fact's own: a term only it holds counts 1.
  const chosen = rarestTerms(counted.map(({ term, facts }) => ({ term, facts: Number(facts) - 1 })));
  const shortlist = await writes.all<{ id: string; body: string; key: string; proposedAt: string | null }>(SHORTLIST_SQL, [
    counted[0].branch,
    JSON.stringify(chosen),
    today,
    SHORTLIST_LIMIT,
    fact.id,
    ...branchKey,
  ]);
  if (!shortlist.length) return [];
  const proposed = new Map(shortlist.map((row) => [row.id, row.proposedAt ?? null]));
  const found = new LookAlikeIndex(shortlist).similarTo(fact.body);
  for (const alike of found) await writes.run(PAIR_SQL, [fact.id, alike.id, alike.score]);
  return found.map((alike) => ({ ...alike, proposedAt: proposed.get(alike.id) ?? null }));
}

/**
 * How near two vectors must be (cosine similarity) to pair their facts by meaning.
 * Embedding models put paraphrases of one claim at about 0.9–0.97 and facts that are
 * merely on the same subject ("refunds need approval" / "refunds take five days")
 * at about 0.7–0.88; a look-alike note on the page asks a person to act, so only
 * restatements should fire, and 0.92 sits above the same-subject band. The test
 * server's paraphrases ("Deploys …" / "Releases …") land at ~0.94, unrelated text below 0.8.
 */
export const MEANING_THRESHOLD = 0.92;

/**
 * The live, unexpired facts and proposals nearest a fact's stored vector, of its agent,
 * workspace, scope and place, nearest first. Led by the fact's own row (its key), then
 * facts_recall_idx by agent, scope and scope_ref: one branch's range, never another
 * agent's facts. Never the fact itself nor one of the same normalised text (dedupe's
 * twin). Parameters: model, fact id, today, today, model, max distance, limit.
 */
const NEAREST_BY_MEANING_SQL = `SELECT facts.id AS id, facts.created_at AS createdAt, me.created_at AS myCreatedAt,
      me.id AS myId, vector_distance_cos(fv.embedding, me.embedding) AS distance
    FROM (SELECT f.id, f.agent_id, f.workspace_id, f.scope, f.scope_ref, f.body_key, f.created_at, v.embedding
        FROM facts f JOIN fact_vectors v ON v.fact_id = f.id AND v.model = ?
        WHERE f.id = ? AND f.forgotten_at IS NULL AND (f.valid_until IS NULL OR f.valid_until >= ?)) me
      CROSS JOIN facts INDEXED BY facts_recall_idx
      CROSS JOIN fact_vectors fv ON fv.fact_id = facts.id
    WHERE facts.agent_id = me.agent_id AND facts.scope = me.scope AND facts.scope_ref = me.scope_ref
      AND facts.workspace_id = me.workspace_id AND facts.forgotten_at IS NULL AND ${UNEXPIRED_SQL}
      AND facts.id <> me.id AND facts.body_key <> me.body_key
      AND fv.model = ? AND length(fv.embedding) = length(me.embedding)
      AND vector_distance_cos(fv.embedding, me.embedding) <= ?
    ORDER BY distance, facts.id
    LIMIT ?`;

/** The meaning statement, for the test that shows its plan seeks the agent's own branch. */
export const NEAREST_BY_MEANING_STATEMENT = NEAREST_BY_MEANING_SQL;

/** A pair goes in once, newer fact first, unless it is already there either way round (a word pair keeps its score). */
const MEANING_PAIR_SQL = `INSERT OR IGNORE INTO fact_look_alikes (fact_id, other_id, score)
    SELECT ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM fact_look_alikes WHERE fact_id = ? AND other_id = ?)`;

/**
 * Pairs a fact whose vector of `model` was just stored with its nearest look-alikes by
 * meaning (at most MAX_LOOK_ALIKES, at MEANING_THRESHOLD or nearer), in the embedder's
 * write transaction. The newer fact of a pair is `fact_id`, as at write time, so
 * "Replace the older one" retires the older. Returns how many pairs were added.
 */
export async function pairByMeaning(writes: Writes, factId: string, model: string, today: string): Promise<number> {
  const near = await writes.all<{ id: string; createdAt: string; myCreatedAt: string; myId: string; distance: number | null }>(
    NEAREST_BY_MEANING_SQL,
    [model, factId, today, today, model, 1 - MEANING_THRESHOLD, MAX_LOOK_ALIKES],
  );
  let added = 0;
  for (const row of near) {
    if (row.distance === null) continue;
    const mineIsNewer = row.myCreatedAt > row.createdAt || (row.myCreatedAt === row.createdAt && row.myId > row.id);
    const [newer, older] = mineIsNewer ? [factId, row.id] : [row.id, factId];
    const score = Math.round((1 - row.distance) * 1000) / 1000;
    await writes.run(MEANING_PAIR_SQL, [newer, older, score, older, newer]);
    const [changed] = await writes.all<{ n: number }>("SELECT changes() AS n", []);
    added += Number(changed?.n ?? 0);
  }
  return added;
}

/**
 * What an agent may be told of a new fact's look-alikes in this place: only facts it
 * may recall here. They share the new fact's scope, so that is the scope's rule — and
 * never a proposal, which waits for a person precisely so that its text does not reach
 * the agent's context (an instruction-like proposal echoed back would undo the wait).
 */
export function similarForAgent(
  fact: FactScope,
  found: readonly FoundLookAlike[],
  place: Place,
  today: string,
): LookAlike[] {
  return found
    .filter((alike) => recallable({ ...fact, validUntil: null, proposedAt: alike.proposedAt }, place, today))
    .map(({ id, body, score }) => ({ id, body, score }));
}

/** A kept fact's look-alike as the Memory page shows it: the older fact's id and text. */
export type ShownLookAlike = { factId: string; id: string; body: string; score: number };

/**
 * The look-alikes of the given facts that this person may see: both facts live, not
 * proposals (those are the Inbox's), the other unexpired as of `today`, and each seen
 * through visibleSql — one pair of one scope has one visibility, but the rule is
 * applied to both facts all the same. Best first per fact.
 */
export async function lookAlikesOf(
  db: Conn,
  viewer: ViewerRef,
  agentId: string,
  factIds: readonly string[],
  today: string,
): Promise<ShownLookAlike[]> {
  if (!factIds.length) return [];
  const visible = visibleSql(viewer);
  // The listed facts go in as one JSON array, so the statement's text is the same for any page.
  return readAll<ShownLookAlike>(
    db,
    `SELECT p.fact_id AS factId, facts.id AS id, facts.body AS body, p.score AS score
      FROM fact_look_alikes p JOIN facts ON facts.id = p.other_id
      WHERE p.fact_id IN (SELECT value FROM json_each(?))
        AND facts.agent_id = ? AND facts.forgotten_at IS NULL AND facts.proposed_at IS NULL AND ${UNEXPIRED_SQL}
        AND ${visible.text}
        AND EXISTS (SELECT 1 FROM facts WHERE facts.id = p.fact_id AND facts.agent_id = ?
          AND facts.forgotten_at IS NULL AND facts.proposed_at IS NULL AND ${visible.text})
      ORDER BY p.fact_id, p.score DESC, facts.id`,
    [JSON.stringify(factIds), agentId, today, ...visible.args, agentId, ...visible.args],
  );
}

/** Both facts of a pair are live facts of this agent (not proposals) that this person may change. */
function pairChangeableSql(viewer: ViewerRef, agentId: string): SqlPart {
  const changeable = changeableSql(viewer);
  const fact = (column: string) =>
    `EXISTS (SELECT 1 FROM facts WHERE facts.id = ${column} AND facts.agent_id = ? AND facts.forgotten_at IS NULL
      AND facts.proposed_at IS NULL AND ${changeable.text})`;
  return {
    text: `${fact("fact_look_alikes.fact_id")} AND ${fact("fact_look_alikes.other_id")}`,
    args: [agentId, ...changeable.args, agentId, ...changeable.args],
  };
}

/**
 * "Keep both": the pair goes, so the page stops offering to replace. Only someone who
 * may change both facts may dismiss it for everyone (checked in the DELETE).
 */
export async function keepBoth(
  db: Conn,
  viewer: ViewerRef,
  agentId: string,
  factId: string,
  otherId: string,
): Promise<{ status: "kept" | "not_found" }> {
  const rule = pairChangeableSql(viewer, agentId);
  const deleted = await writeTransaction(db, (writes) =>
    writes.all<{ fact_id: string }>(
      `DELETE FROM fact_look_alikes WHERE fact_id = ? AND other_id = ? AND ${rule.text} RETURNING fact_id`,
      [factId, otherId, ...rule.args],
    ),
  );
  return { status: deleted.length ? "kept" : "not_found" };
}

/**
 * "Replace the older one": the older fact of a pair is retired into the newer one's
 * history (replace.ts), as an agent's `replaces` retires it. A person may do it only
 * where they may change both facts (one scope, so changeableBy; checked in SQL in the
 * same transaction); the pair must still be there.
 */
export async function replaceOlder(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
  otherId: string,
): Promise<{ status: "replaced" | "not_found" }> {
  const rule = pairChangeableSql(viewer, agentId);
  return writeTransaction(db, async (writes) => {
    const [pair] = await writes.all<{ fact_id: string }>(
      `SELECT fact_id FROM fact_look_alikes WHERE fact_id = ? AND other_id = ? AND ${rule.text}`,
      [factId, otherId, ...rule.args],
    );
    if (!pair) return { status: "not_found" as const };
    const by = { kind: "user" as const, id: viewer.id, name: viewer.name };
    const retired = await retireReplaced(writes, factId, otherId, by, nowIso());
    return { status: retired ? ("replaced" as const) : ("not_found" as const) };
  });
}
