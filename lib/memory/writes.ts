/**
 * Changing facts. Each write is one writeTransaction (db/writer.ts: BEGIN IMMEDIATE,
 * so writers queue across processes), applies the rule in its UPDATE's WHERE clause
 * (rules-sql.ts), and
 * records its event in the same transaction. Zero rows changed means "no such
 * fact" — the same answer for a missing fact and one the actor may not change.
 */
import { foldWal, writeTransaction, type Conn, type SqlPart, type Writes } from "@/db/client";
import type { factEvents } from "@/db/schema";
import { newId, nowIso } from "@/lib/ids";
import { derivedColumns, sameTermsBack } from "./derived-columns";
import { FACT_COLUMNS, storedFact, type FactColumnsRow, type StoredFact } from "./fact-columns";
import { cleanFact, dedupeKey } from "./fact-text";
import { pairLookAlikes, type FoundLookAlike } from "./look-alike-pairs";
import {
  checkReplaceable,
  keepsAudience,
  recordReplaceIntent,
  replacedAlready,
  retireIntendedReplacements,
  retireReplaced,
  type ReplaceTarget,
} from "./replace";
import { FORGET_GRACE_DAYS, MAX_FACTS, agentMayForget, utcDay, type Place, type ProposalReason, type Scope } from "./rules";
import { agentMayForgetSql, changeableSql, type ViewerRef } from "./rules-sql";
import { looksLikeSecret } from "./secrets";
import { LIVE_COUNT_SQL } from "./store";

/** Who makes a change, as history records them. */
export type Actor = { kind: "user" | "agent"; id: string; name: string };
/** A signed-in person changing facts in one workspace: the viewer, and how history and sources name them. */
export type PersonActor = ViewerRef & { name: string; handle: string };

export type TextProblem = { status: "invalid_fact" } | { status: "looks_like_secret"; what: string };

/** Cleans text and refuses blanks and credentials, before any transaction starts. */
export function checkText(raw: unknown): { body: string } | TextProblem {
  const body = cleanFact(raw);
  if (!body) return { status: "invalid_fact" };
  const what = looksLikeSecret(body);
  if (what) return { status: "looks_like_secret", what };
  return { body };
}

const EVENT_SQL = `INSERT INTO fact_events (fact_id, kind, actor_id, actor_kind, actor_name, before, after, at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

export async function recordEvent(
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

async function liveCount(writes: Writes, agentId: string): Promise<number> {
  const [row] = await writes.all<{ n: number }>(LIVE_COUNT_SQL, [agentId]);
  return Number(row?.n ?? 0);
}

// `id IS NOT ?` with null excepts nothing.
const TWIN_SQL = `SELECT ${FACT_COLUMNS} FROM facts
  WHERE agent_id = ? AND scope = ? AND scope_ref = ? AND body_key = ? AND forgotten_at IS NULL AND id IS NOT ?
  LIMIT 1`;

/** The live fact with the same normalised text in the same scope, if any: a repeat refreshes it instead of adding a row. */
export async function findTwin(
  writes: Writes,
  fact: { agentId: string; scope: string; scopeRef: string; bodyKey: string },
  exceptId: string | null = null,
): Promise<StoredFact | undefined> {
  const [row] = await writes.all<FactColumnsRow>(TWIN_SQL, [fact.agentId, fact.scope, fact.scopeRef, fact.bodyKey, exceptId]);
  return row && storedFact(row);
}

export type NewFact = {
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
  /** The last day it holds ("YYYY-MM-DD", UTC), checked by the caller; left out: no end, and a twin keeps its own. */
  validUntil?: string | null;
  /** Set (proposalReasonFor in rules.ts): a new fact is kept as a proposal waiting for a person, for this reason. */
  proposal?: ProposalReason | null;
  /** An agent's fact this one takes the place of (replace.ts): allowed where the agent could forget it. */
  replaces?: ReplaceTarget;
};

/**
 * The fact `replaces` named, retired by this write (or, for a proposal, at approve), with its text — but not
 * when a repeat finds it retired already (replacedAlready): its row is gone, so whether its text may be shown
 * here can no longer be judged.
 */
export type Replaced = { id: string; body?: string };

export type RememberResult =
  | { status: "not_allowed" }
  /** `similar`: the live facts and proposals of its scope that read almost like it (look-alike-pairs.ts). */
  | { status: "created"; fact: StoredFact; similar: FoundLookAlike[]; replaced?: Replaced }
  | { status: "deduplicated"; fact: StoredFact; replaced?: Replaced }
  /** The fact `replaces` named is one the agent could not forget here: agentForget's two answers. */
  | { status: "replace_refused"; verdict: "not_found" | "forbidden" }
  /** It is kept just for one person, and the new fact is not theirs alone (keepsAudience in replace.ts). */
  | { status: "replace_widens" }
  | { status: "memory_full" }
  | TextProblem;

/** What a fact's twin is found by (findTwin); a workspace fact's scope_ref is '' whatever the input says. */
function twinKeyOf(input: NewFact, body: string) {
  return { agentId: input.agentId, scope: input.scope, scopeRef: input.scope === "workspace" ? "" : input.scopeRef, bodyKey: dedupeKey(body) };
}

/**
 * The same replace sent again (replacedAlready): the live, decided twin this write would repeat already took
 * the old fact's place.
 */
async function isReplaceAgain(writes: Writes, oldFactId: string, input: NewFact, body: string): Promise<boolean> {
  const twin = await findTwin(writes, twinKeyOf(input, body));
  return !!twin && !twin.proposedAt && (await replacedAlready(writes, oldFactId, twin.id));
}

/**
 * Keeps a fact, or refreshes its twin. The limit is counted inside the write
 * transaction, so two writers at MAX_FACTS - 1 never make MAX_FACTS + 1.
 */
export async function remember(
  db: Conn,
  input: NewFact,
  /** A rule the writer must pass, checked inside the same transaction as the write. */
  allowed?: (writes: Writes) => Promise<boolean>,
): Promise<RememberResult> {
  const text = checkText(input.body);
  if (!("body" in text)) return text;
  return writeTransaction(db, async (writes): Promise<RememberResult> => {
    // The fact it replaces is judged first (load → 404, allowed → 403), before anything is written.
    const old = input.replaces ? await checkReplaceable(writes, input.agentId, input.replaces) : null;
    // Gone because this very write was done before (a retry): a repeat of the fact, not a 404.
    const again =
      input.replaces && old?.verdict === "not_found" && (await isReplaceAgain(writes, input.replaces.id, input, text.body)) ? input.replaces.id : null;
    if (old && old.verdict !== "allowed" && !again) return { status: "replace_refused", verdict: old.verdict };
    if (old?.verdict === "allowed" && !(await keepsAudience(writes, old.id, input))) return { status: "replace_widens" };
    if (allowed && !(await allowed(writes))) return { status: "not_allowed" };
    // A live fact replaced frees its place, unless the new one waits as a proposal: the old stays live until then.
    const room = old?.verdict === "allowed" && old.live && !input.proposal ? 1 : 0;
    const kept = await keepFact(writes, input, text.body, room);
    if (again) return kept.status === "deduplicated" ? { ...kept, replaced: { id: again } } : kept;
    return old?.verdict === "allowed" ? replaceWith(writes, kept, old.id, input) : kept;
  });
}

/** After keepFact: the new fact (or its twin) takes the old one's place now, or at approve for a proposal. */
async function replaceWith(writes: Writes, kept: RememberResult, oldId: string, input: NewFact): Promise<RememberResult> {
  if (kept.status !== "created" && kept.status !== "deduplicated") return kept;
  // Repeating the very fact it replaces is only a refresh.
  if (kept.fact.id === oldId) return kept;
  const at = nowIso();
  if (kept.fact.proposedAt) {
    const body = await recordReplaceIntent(writes, kept.fact.id, oldId, input.by, input.source.label, at);
    return body === null ? kept : { ...kept, replaced: { id: oldId, body } };
  }
  const body = await retireReplaced(writes, kept.fact.id, oldId, input.by, at, input.source.label);
  if (body === null) return kept;
  const replaced = { id: oldId, body };
  // The old fact may have looked like the new one: it is gone now, so it is no longer "similar".
  return kept.status === "created"
    ? { ...kept, similar: kept.similar.filter((alike) => alike.id !== oldId), replaced }
    : { ...kept, replaced };
}

const REFRESH_SQL = `UPDATE facts SET updated_at = ?, pinned = (pinned OR ?), valid_until = ? WHERE id = ?
  RETURNING ${FACT_COLUMNS}`;

/** A person telling a proposal's very text decides it: it becomes live, theirs to keep (keepFact). */
const APPROVE_TWIN_SQL = `UPDATE facts SET proposed_at = NULL, proposal_reason = NULL, updated_at = ?, pinned = (pinned OR ?),
    valid_until = ?, version = version + 1
  WHERE id = ? RETURNING ${FACT_COLUMNS}`;

const INSERT_SQL = `INSERT INTO facts (id, agent_id, workspace_id, scope, scope_ref, scope_label, body, body_key,
    source_kind, source_ref, source_label, source_channel_id, created_by, created_by_kind, pinned, valid_until,
    proposed_at, proposal_reason, created_at, updated_at, terms, line_size)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  RETURNING ${FACT_COLUMNS}`;

/**
 * The date a repeat leaves on its twin. A repeat that names a date sets it (the fact now ends then, or holds
 * again); one that names none leaves the twin's, since a writer repeating a fact may not know it ends. An
 * agent never moves the date of a fact people gave, pinned or corrected: it can't undo their curation.
 */
function twinValidUntil(twin: StoredFact, input: NewFact): string | null {
  const current = twin.validUntil ?? null;
  if (input.validUntil === undefined) return current;
  const curated = twin.pinned || twin.createdByKind !== "agent" || twin.sourceKind === "person" || !!twin.correctedAt;
  if (input.by.kind === "agent" && curated) return current;
  return input.validUntil;
}

/**
 * remember's steps, inside its transaction: refresh the twin, or check the limit and insert; then the history.
 * A twin that is a proposal stays one when an agent repeats it (a repeat never skips the wait), and becomes
 * live when a person tells it (their write passed the same rule as deciding it: tell.ts's `allowed`).
 * A twin that is live stays live, whatever `input.proposal` says: it was already decided.
 */
async function keepFact(writes: Writes, input: NewFact, body: string, room = 0): Promise<RememberResult> {
  const key = twinKeyOf(input, body);
  const { scopeRef, bodyKey } = key;
  const at = nowIso();
  const twin = await findTwin(writes, key);
  if (twin) {
    // A person re-telling a fact also pins it, as every fact people add is pinned.
    const pin = input.pinned && !twin.pinned;
    const approve = !!twin.proposedAt && input.by.kind === "user";
    const [row] = await writes.all<FactColumnsRow>(approve ? APPROVE_TWIN_SQL : REFRESH_SQL, [
      at,
      pin ? 1 : 0,
      twinValidUntil(twin, input),
      twin.id,
    ]);
    const kind = approve ? "approve" : twin.proposedAt ? "propose" : "remember";
    await recordEvent(writes, twin.id, kind, input.by, twin.body, twin.body, at);
    if (pin) await recordEvent(writes, twin.id, "pin", input.by, null, null, at);
    // Approving this way carries out a `replaces` the proposal was written with, as approveProposal does.
    if (approve) {
      await retireIntendedReplacements(writes, twin.id, input.by, at, changeableSql({ workspaceId: input.workspaceId, id: input.by.id }));
    }
    return { status: "deduplicated", fact: storedFact(row) };
  }
  // `room`: a fact this write retires (replace.ts) is still counted here, and frees its place.
  if ((await liveCount(writes, input.agentId)) >= MAX_FACTS + room) return { status: "memory_full" };

  const id = newId("fact");
  const derived = derivedColumns({
    id,
    scope: input.scope,
    body,
    scopeLabel: input.scopeLabel,
    sourceLabel: input.source.label,
    pinned: input.pinned,
  });
  const [row] = await writes.all<FactColumnsRow>(INSERT_SQL, [
    id,
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
    input.validUntil ?? null,
    input.proposal ? at : null,
    input.proposal ?? null,
    at,
    at,
    derived.terms,
    derived.lineSize,
  ]);
  await recordEvent(writes, row.id, input.proposal ? "propose" : "remember", input.by, null, body, at);
  const similar = await pairLookAlikes(writes, { ...input, id: row.id, scopeRef, body }, utcDay());
  return { status: "created", fact: storedFact(row), similar };
}

export function personActor(viewer: PersonActor): Actor {
  return { kind: "user", id: viewer.id, name: viewer.name };
}

/** A live fact (or proposal) of this agent the person may change, read inside the transaction. */
export async function changeableFact(writes: Writes, viewer: PersonActor, agentId: string, factId: string) {
  const changeable = changeableSql(viewer);
  const [row] = await writes.all<FactColumnsRow>(
    `SELECT ${FACT_COLUMNS} FROM facts
      WHERE facts.id = ? AND facts.agent_id = ? AND facts.forgotten_at IS NULL AND ${changeable.text} LIMIT 1`,
    [factId, agentId, ...changeable.args],
  );
  return row && storedFact(row);
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
 * if the text changed since, nothing is written and the current text comes back,
 * so an edit never silently overwrites another. The corrector becomes the source,
 * marked corrected; who first kept the fact stays.
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

  return writeTransaction(db, async (writes): Promise<CorrectResult> => {
    const current = await changeableFact(writes, viewer, agentId, factId);
    if (!current) return { status: "not_found" };
    if (current.version !== fromVersion) {
      return { status: "stale", current: { body: current.body, version: current.version } };
    }
    if (current.body === body) return { status: "unchanged", fact: current };
    if (await findTwin(writes, { ...current, bodyKey }, current.id)) return { status: "duplicate" };

    const at = nowIso();
    const row = await writeCorrection(writes, viewer, agentId, factId, fromVersion, body, at);
    if (!row) return { status: "not_found" };
    await recordEvent(writes, factId, "correct", personActor(viewer), current.body, body, at);
    return { status: "corrected", fact: row };
  });
}

/**
 * The UPDATE of a person's new text, in the caller's transaction, checked (cleaned, no twin) by the caller:
 * the person becomes the source, marked corrected. With `approve`, only a proposal changes, and it becomes
 * live (Edit and approve, proposals.ts). Null when the fact changed, went or may not be changed by them.
 */
export async function writeCorrection(
  writes: Writes,
  viewer: PersonActor,
  agentId: string,
  factId: string,
  fromVersion: number,
  body: string,
  at: string,
  approve = false,
): Promise<StoredFact | null> {
  const changeable = changeableSql(viewer);
  const decided = approve ? ", proposed_at = NULL, proposal_reason = NULL" : "";
  // The terms and the line's size are the new text's and the new source's, beside the scope's label.
  const [labelled] = await writes.all<{ scopeLabel: string | null; scope: Scope; pinned: number }>(
    "SELECT scope_label AS scopeLabel, scope, pinned FROM facts WHERE id = ? AND agent_id = ?",
    [factId, agentId],
  );
  if (!labelled) return null; // no such fact of this agent: the UPDATE below would change nothing
  const source = `@${viewer.handle}`;
  const derived = derivedColumns({ ...labelled, id: factId, body, sourceLabel: source, pinned: !!labelled.pinned });
  const [row] = await writes.all<FactColumnsRow>(
    `UPDATE facts SET body = ?, body_key = ?, source_kind = 'person', source_ref = ?, source_label = ?,
        corrected_at = ?, updated_at = ?, version = version + 1, terms = ?, line_size = ?${decided}
      WHERE facts.id = ? AND facts.agent_id = ? AND facts.version = ? AND facts.forgotten_at IS NULL
        ${approve ? "AND facts.proposed_at IS NOT NULL" : ""} AND ${changeable.text}
      RETURNING ${FACT_COLUMNS}`,
    [
      body,
      dedupeKey(body),
      viewer.id,
      source,
      at,
      at,
      derived.terms,
      derived.lineSize,
      factId,
      agentId,
      fromVersion,
      ...changeable.args,
    ],
  );
  if (!row) return null;
  const back = sameTermsBack(factId, derived.terms);
  await writes.run(back.text, back.args);
  return storedFact(row);
}

/** A person pins or unpins a fact. Pinning what is already pinned changes nothing and says so. */
export async function setPinned(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
  pinned: boolean,
): Promise<{ status: "pinned" | "unpinned" | "unchanged" } | { status: "not_found" }> {
  return writeTransaction(db, async (writes) => {
    const changeable = changeableSql(viewer);
    const [changed] = await writes.all<{ id: string }>(
      `UPDATE facts SET pinned = ?
        WHERE facts.id = ? AND facts.agent_id = ? AND facts.pinned = ? AND facts.forgotten_at IS NULL AND ${changeable.text}
        RETURNING id`,
      [pinned ? 1 : 0, factId, agentId, pinned ? 0 : 1, ...changeable.args],
    );
    if (!changed) {
      return (await changeableFact(writes, viewer, agentId, factId))
        ? { status: "unchanged" as const }
        : { status: "not_found" as const };
    }
    await recordEvent(writes, factId, pinned ? "pin" : "unpin", personActor(viewer), null, null, nowIso());
    return { status: pinned ? ("pinned" as const) : ("unpinned" as const) };
  });
}

/** How a fact's end reads in its history: "until 2026-12-12", or "no end date". */
export function untilInWords(validUntil: string | null): string {
  return validUntil ? `until ${validUntil}` : "no end date";
}

/**
 * A person sets or clears a fact's last day: Renew for an expired fact, "Until" in
 * Edit. Checked (today or later) by the caller's input schema; the rule is in the
 * UPDATE's WHERE clause. History records it as a correction of the date ("until
 * 2026-06-14" → "until 2026-07-01"), so no new event kind is needed. The version is
 * bumped, so an Edit open since then sees the change; the text, source and recency
 * stay as they were.
 */
export async function setValidUntil(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
  validUntil: string | null,
): Promise<{ status: "renewed" | "unchanged" } | { status: "not_found" }> {
  return writeTransaction(db, async (writes) => {
    const current = await changeableFact(writes, viewer, agentId, factId);
    if (!current) return { status: "not_found" as const };
    const before = current.validUntil ?? null;
    if (before === validUntil) return { status: "unchanged" as const };
    const changeable = changeableSql(viewer);
    const [changed] = await writes.all<{ id: string }>(
      `UPDATE facts SET valid_until = ?, version = version + 1
        WHERE facts.id = ? AND facts.agent_id = ? AND facts.forgotten_at IS NULL AND ${changeable.text}
        RETURNING id`,
      [validUntil, factId, agentId, ...changeable.args],
    );
    if (!changed) return { status: "not_found" as const };
    await recordEvent(writes, factId, "correct", personActor(viewer), untilInWords(before), untilInWords(validUntil), nowIso());
    return { status: "renewed" as const };
  });
}

/** A person forgets a fact: it moves to "Recently forgotten" for FORGET_GRACE_DAYS. */
export async function forgetFact(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
): Promise<{ status: "forgotten" | "not_found" }> {
  return writeTransaction(db, async (writes) => {
    const changeable = changeableSql(viewer);
    const rule = {
      text: `facts.id = ? AND facts.agent_id = ? AND facts.forgotten_at IS NULL AND ${changeable.text}`,
      args: [factId, agentId, ...changeable.args],
    };
    const forgotten = await moveToForgotten(writes, factId, rule, personActor(viewer));
    return { status: forgotten ? ("forgotten" as const) : ("not_found" as const) };
  });
}

/**
 * Moves the fact that passes `rule` to "Recently forgotten" and records who did
 * it, in the caller's transaction. False when nothing passed the rule.
 */
export async function moveToForgotten(
  writes: Writes,
  factId: string,
  rule: SqlPart,
  actor: Actor,
  /** A proposal declined is forgotten with its own event, the reason as `after`. */
  event: { kind: "forget" | "decline"; after: string | null } = { kind: "forget", after: null },
): Promise<boolean> {
  const at = nowIso();
  const [changed] = await writes.all<{ body: string }>(
    `UPDATE facts SET forgotten_at = ? WHERE ${rule.text} RETURNING body`,
    [at, ...rule.args],
  );
  if (!changed) return false;
  await recordEvent(writes, factId, event.kind, actor, changed.body, event.after, at);
  return true;
}

/** The earliest forgotten time that can still be restored, as of `now`. */
export function graceCutoff(now: Date = new Date()): string {
  return new Date(now.getTime() - FORGET_GRACE_DAYS * 24 * 60 * 60 * 1000).toISOString();
}

/**
 * A person restores a recently forgotten fact. It counts against the limit again,
 * and cannot come back beside a live twin. A declined proposal comes back as a
 * proposal (forgetting leaves proposed_at alone), to be decided again.
 */
export async function restoreFact(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
): Promise<{ status: "restored" | "not_found" | "memory_full" | "duplicate" }> {
  return writeTransaction(db, async (writes) => {
    const changeable = changeableSql(viewer);
    const rule = `facts.id = ? AND facts.agent_id = ? AND facts.forgotten_at IS NOT NULL AND facts.forgotten_at >= ?
      AND ${changeable.text}`;
    const args = [factId, agentId, graceCutoff(), ...changeable.args];
    const [forgotten] = await writes.all<FactColumnsRow & { bodyKey: string }>(
      `SELECT ${FACT_COLUMNS}, facts.body_key AS bodyKey FROM facts WHERE ${rule} LIMIT 1`,
      args,
    );
    if (!forgotten) return { status: "not_found" as const };
    if (await findTwin(writes, forgotten)) return { status: "duplicate" as const };
    if ((await liveCount(writes, agentId)) >= MAX_FACTS) return { status: "memory_full" as const };
    const [changed] = await writes.all<{ id: string }>(`UPDATE facts SET forgotten_at = NULL WHERE ${rule} RETURNING id`, args);
    if (!changed) return { status: "not_found" as const };
    await recordEvent(writes, factId, "restore", personActor(viewer), null, forgotten.body, nowIso());
    return { status: "restored" as const };
  });
}

/**
 * "Forget permanently": a forgotten fact and its history are deleted now — their pages
 * zeroed (secure_delete), and the WAL folded into the file (foldWal), so the page as it
 * was before the delete does not wait in the WAL until a checkpoint reuses it.
 */
export async function purgeFact(
  db: Conn,
  viewer: PersonActor,
  agentId: string,
  factId: string,
): Promise<{ status: "purged" | "not_found" }> {
  const changeable = changeableSql(viewer);
  const deleted = await writeTransaction(db, (writes) =>
    writes.all<{ id: string }>(
      `DELETE FROM facts
        WHERE facts.id = ? AND facts.agent_id = ? AND facts.forgotten_at IS NOT NULL AND ${changeable.text}
        RETURNING id`,
      [factId, agentId, ...changeable.args],
    ),
  );
  if (!deleted.length) return { status: "not_found" };
  await foldWal(db);
  return { status: "purged" };
}

/** Deletes every fact forgotten longer ago than the grace period, with its history, as purgeFact does. Returns how many. */
export async function purgeExpired(db: Conn, now: Date = new Date()): Promise<number> {
  const deleted = await writeTransaction(db, (writes) =>
    writes.all<{ id: string }>("DELETE FROM facts WHERE forgotten_at IS NOT NULL AND forgotten_at < ? RETURNING id", [
      graceCutoff(now),
    ]),
  );
  if (deleted.length) await foldWal(db);
  return deleted.length;
}

/**
 * An agent forgets a fact from where it is, and never undoes people's curation.
 * The rule is in the UPDATE's WHERE clause; when nothing changed, the pure rule
 * says whether the answer is "not_found" (the agent may not even know the fact)
 * or "forbidden".
 */
export async function agentForget(
  db: Conn,
  agent: Actor & { kind: "agent" },
  factId: string,
  place: Place,
): Promise<"forgotten" | "not_found" | "forbidden"> {
  // One day for both verdicts below, so a forget at midnight cannot get two answers.
  const today = utcDay();
  return writeTransaction(db, async (writes) => {
    const mayForget = agentMayForgetSql(agent.id, place, today);
    const rule = { text: `facts.id = ? AND ${mayForget.text}`, args: [factId, ...mayForget.args] };
    if (await moveToForgotten(writes, factId, rule, agent)) return "forgotten" as const;
    const [row] = await writes.all<FactColumnsRow>(
      `SELECT ${FACT_COLUMNS} FROM facts WHERE facts.id = ? AND facts.agent_id = ? LIMIT 1`,
      [factId, agent.id],
    );
    if (!row) return "not_found" as const;
    const verdict = agentMayForget(storedFact(row), agent.id, place, today);
    return verdict === "allowed" ? ("not_found" as const) : verdict;
  });
}
