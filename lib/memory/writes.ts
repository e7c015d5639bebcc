/**
 * Changing facts. Each write is one transaction (BEGIN IMMEDIATE, so writers
 * queue across processes), applies the rule in its UPDATE's WHERE clause, and
 * records its event in the same transaction. Zero rows changed means "no such
 * fact" — the same answer for a missing fact and one the actor may not change.
 */
import { and, eq, gte, isNotNull, isNull, lt, ne, sql, type SQL } from "drizzle-orm";
import { writeTransaction, writesIn, type Conn, type Writes } from "@/db/client";
import { factEvents, facts } from "@/db/schema";
import { newId, nowIso } from "@/lib/ids";
import { cleanFact, dedupeKey } from "./fact-text";
import { FORGET_GRACE_DAYS, MAX_FACTS, agentMayForget, soloPerson, type Place, type Scope } from "./rules";
import { looksLikeSecret } from "./secrets";
import { FACT_COLUMNS, factColumns, storedFact, type FactColumnsRow, type StoredFact } from "./store";
import { changeableSql, type SqlViewer } from "./visibility-sql";

/** Who makes a change, as history records them. */
export type Actor = { kind: "user" | "agent"; id: string; name: string };
/** A signed-in person changing facts in one workspace. */
export type PersonActor = SqlViewer & { name: string; handle: string };

type TextProblem = { status: "invalid_fact" } | { status: "looks_like_secret"; what: string };

/** Cleans text and refuses blanks and credentials, before any transaction starts. */
function checkText(raw: unknown): { body: string } | TextProblem {
  const body = cleanFact(raw);
  if (!body) return { status: "invalid_fact" };
  const what = looksLikeSecret(body);
  if (what) return { status: "looks_like_secret", what };
  return { body };
}

const EVENT_SQL = `INSERT INTO fact_events (fact_id, kind, actor_id, actor_kind, actor_name, before, after, at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

async function recordEvent(
  writes: Writes,
  factId: string,
  kind: (typeof factEvents.$inferInsert)["kind"],
  actor: Actor,
  before: string | null,
  after: string | null,
  at: string,
): Promise<void> {
  await writes.run(EVENT_SQL, [factId, kind, actor.id, actor.kind, actor.name, before, after, at]);
}

const LIVE_COUNT_SQL = "SELECT count(*) AS n FROM facts WHERE agent_id = ? AND forgotten_at IS NULL";

async function liveCount(writes: Writes, agentId: string): Promise<number> {
  const [row] = await writes.all<{ n: number }>(LIVE_COUNT_SQL, [agentId]);
  return Number(row?.n ?? 0);
}

// `id IS NOT ?` with null excepts nothing.
const TWIN_SQL = `SELECT ${FACT_COLUMNS} FROM facts
  WHERE agent_id = ? AND scope = ? AND scope_ref = ? AND body_key = ? AND forgotten_at IS NULL AND id IS NOT ?
  LIMIT 1`;

/** The live fact with the same normalised text in the same scope, if any: a repeat refreshes it instead of adding a row. */
async function findTwin(
  writes: Writes,
  fact: { agentId: string; scope: string; scopeRef: string; bodyKey: string },
  exceptId: string | null = null,
): Promise<StoredFact | undefined> {
  const [row] = await writes.all<FactColumnsRow>(TWIN_SQL, [fact.agentId, fact.scope, fact.scopeRef, fact.bodyKey, exceptId]);
  return row && storedFact(row);
}

export type RememberInput = {
  agentId: string;
  workspaceId: string;
  body: unknown;
  scope: Scope;
  scopeRef: string;
  scopeLabel: string | null;
  source: {
    kind: "message" | "session" | "person";
    ref: string | null;
    label: string | null;
    channelId: string | null;
  };
  by: Actor;
  pinned: boolean;
};

export type RememberResult =
  | { status: "not_allowed" }
  | { status: "created"; fact: StoredFact }
  | { status: "deduplicated"; fact: StoredFact }
  | { status: "memory_full" }
  | TextProblem;

/**
 * Keeps a fact, or refreshes its twin. The limit is counted inside the write
 * transaction, so two writers at MAX_FACTS - 1 never make MAX_FACTS + 1.
 *
 * Agents remember on many turns, so this is plain SQL through writeTransaction
 * (statements prepared once); a writer with a rule of its own (`allowed`, written
 * with Drizzle) runs the same steps in a Drizzle transaction.
 */
export async function remember(
  db: Conn,
  input: RememberInput,
  /** A rule the writer must pass, checked inside the same transaction as the write. */
  allowed?: (tx: Conn) => Promise<boolean>,
): Promise<RememberResult> {
  const text = checkText(input.body);
  if (!("body" in text)) return text;
  const keep = (writes: Writes) => keepFact(writes, input, text.body);
  if (!allowed) return writeTransaction(db, keep);
  return db.transaction(async (tx) => ((await allowed(tx)) ? keep(writesIn(tx)) : { status: "not_allowed" }));
}

const REFRESH_SQL = `UPDATE facts SET updated_at = ?, pinned = (pinned OR ?) WHERE id = ? RETURNING ${FACT_COLUMNS}`;

const INSERT_SQL = `INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, scope_label, body, body_key,
    source_kind, source_ref, source_label, source_channel_id, created_by, created_by_kind, pinned, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  RETURNING ${FACT_COLUMNS}`;

/** remember's steps, inside its transaction: refresh the twin, or check the limit and insert; then the history. */
async function keepFact(writes: Writes, input: RememberInput, body: string): Promise<RememberResult> {
  const bodyKey = dedupeKey(body);
  const scopeRef = input.scope === "workspace" ? "" : input.scopeRef;
  const at = nowIso();
  const twin = await findTwin(writes, { agentId: input.agentId, scope: input.scope, scopeRef, bodyKey });
  if (twin) {
    // A person re-telling a fact also pins it, as every fact people add is pinned.
    const pin = input.pinned && !twin.pinned;
    const [row] = await writes.all<FactColumnsRow>(REFRESH_SQL, [at, pin ? 1 : 0, twin.id]);
    await recordEvent(writes, twin.id, "remember", input.by, twin.body, twin.body, at);
    if (pin) await recordEvent(writes, twin.id, "pin", input.by, null, null, at);
    return { status: "deduplicated", fact: storedFact(row) };
  }
  if ((await liveCount(writes, input.agentId)) >= MAX_FACTS) return { status: "memory_full" };

  const [row] = await writes.all<FactColumnsRow>(INSERT_SQL, [
    newId("fact"),
    input.agentId,
    input.workspaceId,
    input.scope,
    scopeRef,
    input.scopeLabel,
    body,
    bodyKey,
    input.source.kind,
    input.source.ref,
    input.source.label,
    input.source.channelId,
    input.by.id,
    input.by.kind,
    input.pinned ? 1 : 0,
    at,
    at,
  ]);
  await recordEvent(writes, row.id, "remember", input.by, null, body, at);
  return { status: "created", fact: storedFact(row) };
}

function personActor(viewer: PersonActor): Actor {
  return { kind: "user", id: viewer.userId, name: viewer.name };
}

/** A live fact of this agent the person may change, read inside the transaction. */
async function changeableFact(tx: Conn, viewer: PersonActor, agentId: string, factId: string) {
  const [row] = await tx
    .select(factColumns)
    .from(facts)
    .where(and(eq(facts.id, factId), eq(facts.agentId, agentId), isNull(facts.forgottenAt), changeableSql(viewer)))
    .limit(1);
  return row;
}

export type CorrectResult =
  | { status: "corrected"; fact: StoredFact }
  | { status: "unchanged"; fact: StoredFact }
  | { status: "not_found" }
  | { status: "stale"; current: { body: string; version: number } }
  | { status: "duplicate" }
  | TextProblem;

/**
 * A person corrects a fact's text. The edit names the version it started from;
 * if the text changed since, nothing is written and the current text comes back
 * so that two edits never silently overwrite each other. The corrector becomes the
 * source, marked corrected, and who first kept the fact stays on record.
 */
export async function correctFact(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
  fromVersion: number,
  rawText: unknown,
): Promise<CorrectResult> {
  const text = checkText(rawText);
  if (!("body" in text)) return text;
  const { body } = text;
  const bodyKey = dedupeKey(body);

  return db.transaction(async (tx): Promise<CorrectResult> => {
    const current = await changeableFact(tx, viewer, agentId, factId);
    if (!current) return { status: "not_found" };
    if (current.version !== fromVersion) {
      return { status: "stale", current: { body: current.body, version: current.version } };
    }
    if (current.body === body) return { status: "unchanged", fact: current };
    if (await findTwin(writesIn(tx), { ...current, bodyKey }, current.id)) return { status: "duplicate" };

    const at = nowIso();
    const [fact] = await tx
      .update(facts)
      .set({
        body,
        bodyKey,
        sourceKind: "person",
        sourceRef: viewer.userId,
        sourceLabel: `@${viewer.handle}`,
        correctedAt: at,
        updatedAt: at,
        version: sql`${facts.version} + 1`,
      })
      .where(
        and(
          eq(facts.id, factId),
          eq(facts.agentId, agentId),
          eq(facts.version, fromVersion),
          isNull(facts.forgottenAt),
          changeableSql(viewer),
        ),
      )
      .returning(factColumns);
    if (!fact) return { status: "not_found" };
    await recordEvent(writesIn(tx), factId, "correct", personActor(viewer), current.body, body, at);
    return { status: "corrected", fact };
  });
}

/** A person pins or unpins a fact. Pinning what is already pinned changes nothing and says so. */
export async function setPinned(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
  pinned: boolean,
): Promise<{ status: "pinned" | "unpinned" | "unchanged" } | { status: "not_found" }> {
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(facts)
      .set({ pinned })
      .where(
        and(
          eq(facts.id, factId),
          eq(facts.agentId, agentId),
          eq(facts.pinned, !pinned),
          isNull(facts.forgottenAt),
          changeableSql(viewer),
        ),
      )
      .returning({ id: facts.id });
    if (!changed) {
      return (await changeableFact(tx, viewer, agentId, factId))
        ? { status: "unchanged" as const }
        : { status: "not_found" as const };
    }
    await recordEvent(writesIn(tx), factId, pinned ? "pin" : "unpin", personActor(viewer), null, null, nowIso());
    return { status: pinned ? ("pinned" as const) : ("unpinned" as const) };
  });
}

/** A person forgets a fact: it moves to "Recently forgotten" for FORGET_GRACE_DAYS. */
export async function forgetFact(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
): Promise<{ status: "forgotten" | "not_found" }> {
  return db.transaction(async (tx) => {
    const rule = and(eq(facts.id, factId), eq(facts.agentId, agentId), isNull(facts.forgottenAt), changeableSql(viewer));
    const forgotten = await moveToForgotten(tx, factId, rule, personActor(viewer));
    return { status: forgotten ? ("forgotten" as const) : ("not_found" as const) };
  });
}

/**
 * Moves the fact that passes `rule` to "Recently forgotten" and records who did
 * it, in the caller's transaction. False when nothing passed the rule.
 */
async function moveToForgotten(tx: Conn, factId: string, rule: SQL | undefined, actor: Actor): Promise<boolean> {
  const at = nowIso();
  const [changed] = await tx.update(facts).set({ forgottenAt: at }).where(rule).returning({ body: facts.body });
  if (!changed) return false;
  await recordEvent(writesIn(tx), factId, "forget", actor, changed.body, null, at);
  return true;
}

/** The earliest forgotten time that can still be restored, as of `now`. */
export function graceCutoff(now: Date = new Date()): string {
  return new Date(now.getTime() - FORGET_GRACE_DAYS * 24 * 60 * 60 * 1000).toISOString();
}

/**
 * A person restores a recently forgotten fact. It counts against the limit again,
 * and cannot come back beside a live twin.
 */
export async function restoreFact(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
): Promise<{ status: "restored" | "not_found" | "memory_full" | "duplicate" }> {
  return db.transaction(async (tx) => {
    const rule = and(
      eq(facts.id, factId),
      eq(facts.agentId, agentId),
      isNotNull(facts.forgottenAt),
      gte(facts.forgottenAt, graceCutoff()),
      changeableSql(viewer),
    );
    const [forgotten] = await tx
      .select({ ...factColumns, bodyKey: facts.bodyKey })
      .from(facts)
      .where(rule)
      .limit(1);
    if (!forgotten) return { status: "not_found" as const };
    if (await findTwin(writesIn(tx), forgotten)) return { status: "duplicate" as const };
    if ((await liveCount(writesIn(tx), agentId)) >= MAX_FACTS) return { status: "memory_full" as const };
    const [changed] = await tx.update(facts).set({ forgottenAt: null }).where(rule).returning({ id: facts.id });
    if (!changed) return { status: "not_found" as const };
    await recordEvent(writesIn(tx), factId, "restore", personActor(viewer), null, forgotten.body, nowIso());
    return { status: "restored" as const };
  });
}

/** "Forget permanently": a forgotten fact and its history are deleted now. */
export async function purgeFact(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
): Promise<{ status: "purged" | "not_found" }> {
  const deleted = await db.transaction((tx) =>
    tx
      .delete(facts)
      .where(and(eq(facts.id, factId), eq(facts.agentId, agentId), isNotNull(facts.forgottenAt), changeableSql(viewer)))
      .returning({ id: facts.id }),
  );
  return { status: deleted.length ? "purged" : "not_found" };
}

/** Deletes every fact forgotten longer ago than the grace period, with its history. Returns how many. */
export async function purgeExpired(db: Conn, now: Date = new Date()): Promise<number> {
  const deleted = await db.transaction((tx) =>
    tx
      .delete(facts)
      .where(and(isNotNull(facts.forgottenAt), lt(facts.forgottenAt, graceCutoff(now))))
      .returning({ id: facts.id }),
  );
  return deleted.length;
}

/**
 * An agent forgets a fact from where it is, by agentMayForget. The rule is in the
 * UPDATE's WHERE clause; when nothing changed, the pure rule says whether the
 * answer is "not_found" (the agent may not even know the fact) or "forbidden".
 */
export async function agentForget(
  db: Conn,
  agent: Actor & { kind: "agent" },
  factId: string,
  place: Place,
): Promise<"forgotten" | "not_found" | "forbidden"> {
  return db.transaction(async (tx) => {
    const rule = and(
      eq(facts.id, factId),
      eq(facts.agentId, agent.id),
      eq(facts.workspaceId, place.workspaceId),
      isNull(facts.forgottenAt),
      eq(facts.pinned, false),
      eq(facts.createdByKind, "agent"),
      ne(facts.sourceKind, "person"),
      recallableHereSql(place),
    );
    if (await moveToForgotten(tx, factId, rule, agent)) return "forgotten" as const;
    const [fact] = await tx
      .select(factColumns)
      .from(facts)
      .where(and(eq(facts.id, factId), eq(facts.agentId, agent.id)))
      .limit(1);
    if (!fact) return "not_found" as const;
    const verdict = agentMayForget(fact, agent.id, place);
    return verdict === "allowed" ? ("not_found" as const) : verdict;
  });
}

/** `recallable` in SQL, plus agentMayForget's "a workspace fact only from a public channel". */
function recallableHereSql(place: Place) {
  const solo = soloPerson(place);
  return sql`(
    (facts.scope = 'workspace' AND ${place.kind === "public" ? 1 : 0} = 1)
    OR (facts.scope = 'channel' AND facts.scope_ref = ${place.channelId})
    OR (facts.scope = 'person' AND facts.scope_ref = ${solo ?? "\u0000"}))`;
}
