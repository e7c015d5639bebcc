/**
 * Replacements, not pile-ups (issue #15): an agent remembers a fact with `replaces`,
 * and the write that keeps the new fact retires the old one in the same transaction.
 * Retiring moves the old fact's history onto the new fact, records a `replace` event
 * there (was → now, the old id, who and where), and deletes the old row: it is never
 * recalled or counted again, its vector, usage and look-alike pairs go by cascade,
 * and purging the new fact purges the old text with it, since nothing else keeps it.
 *
 * Replacing obeys the forget rules (agentMayForget and its SQL twin, as agentForget
 * applies them). When the new fact waits as a proposal, the old one stays live: the
 * `replace` event on the proposal records the intent, and approving it retires the
 * old fact (retireIntendedReplacements, called by proposals.ts).
 */
import { readOne, type Conn, type SqlPart, type Writes } from "@/db/client";
import { FACT_COLUMNS, storedFact, type FactColumnsRow } from "./fact-columns";
import { agentMayForget, type Place } from "./rules";
import { agentMayForgetSql, recallableSql } from "./rules-sql";
import type { Actor } from "./writes";

/** What an agent's write names with `replaces`: the old fact's id, and the place and day its rules are judged in. */
export type ReplaceTarget = { id: string; place: Place; today: string };

/**
 * Whether the agent may replace the fact from here: where it could forget it. `live` is false
 * for a fact forgotten since the agent last saw it (a forget that raced this replace).
 */
export type ReplaceCheck = { verdict: "allowed"; id: string; live: boolean } | { verdict: "not_found" | "forbidden" };

/** agentForget's verdicts for the fact `replaces` names, read inside the write's transaction. */
export async function checkReplaceable(writes: Writes, agentId: string, target: ReplaceTarget): Promise<ReplaceCheck> {
  const mayForget = agentMayForgetSql(agentId, target.place, target.today);
  const [live] = await writes.all<{ id: string }>(`SELECT facts.id FROM facts WHERE facts.id = ? AND ${mayForget.text} LIMIT 1`, [
    target.id,
    ...mayForget.args,
  ]);
  if (live) return { verdict: "allowed", id: live.id, live: true };
  const [row] = await writes.all<FactColumnsRow>(
    `SELECT ${FACT_COLUMNS} FROM facts WHERE facts.id = ? AND facts.agent_id = ? LIMIT 1`,
    [target.id, agentId],
  );
  if (!row) return { verdict: "not_found" };
  const fact = storedFact(row);
  const verdict = agentMayForget(fact, agentId, target.place, target.today);
  // The SQL said no: as in agentForget, the pure rule only tells which "no".
  if (verdict === "allowed") return { verdict: "not_found" };
  // Forgotten in the meantime, but forgettable had it been live: the replacement still takes its place,
  // so a forget racing a replace never leaves both facts live, nor neither.
  if (fact.forgottenAt && agentMayForget({ ...fact, forgottenAt: null }, agentId, target.place, target.today) === "allowed") {
    return { verdict: "allowed", id: fact.id, live: false };
  }
  return { verdict };
}

/**
 * The same replace again — an agent's retry after a lost answer, or the serving thread
 * re-running a remember the agent thread committed before it died (lib/api/agent-thread.ts):
 * the fact `replaces` named is gone, retired into `newFactId`, the fact this write would
 * repeat (its replace event is there). False for any other missing fact, which stays a
 * 404; and the old text is not given again: the old row is gone, so whether this place
 * may read it can no longer be judged.
 */
export async function replacedAlready(writes: Writes, oldFactId: string, newFactId: string): Promise<boolean> {
  const [old] = await writes.all<{ id: string }>("SELECT id FROM facts WHERE id = ?", [oldFactId]);
  return !old && (await replaceEventOf(writes, newFactId, oldFactId));
}

/**
 * A person's fact moves into its replacement's history, text and all, so only another fact kept just for that
 * person may replace it: erasing what agents keep just for them must find every copy of its text, and a
 * channel fact of their DM is not theirs to erase. Other scopes may replace each other where the forget
 * rules allow (the audience is the place's either way).
 */
export async function keepsAudience(
  writes: Writes,
  oldFactId: string,
  replacement: { scope: string; scopeRef: string },
): Promise<boolean> {
  const [old] = await writes.all<{ scope: string; scopeRef: string }>(
    "SELECT scope, scope_ref AS scopeRef FROM facts WHERE id = ?",
    [oldFactId],
  );
  if (!old || old.scope !== "person") return true;
  return replacement.scope === "person" && replacement.scopeRef === old.scopeRef;
}

const REPLACE_EVENT_SQL = `INSERT INTO fact_events (fact_id, kind, actor_id, actor_kind, actor_name, before, after, other_fact_id,
    place_label, at)
  VALUES (?, 'replace', ?, ?, ?, ?, ?, ?, ?, ?)`;

/** The old fact's text, when it is still a row of the same agent as the new one (and not the new one itself). */
async function replacedBody(writes: Writes, newFactId: string, oldFactId: string): Promise<{ old: string; now: string } | null> {
  const [row] = await writes.all<{ old: string; now: string }>(
    `SELECT old.body AS old, new.body AS now FROM facts new JOIN facts old ON old.agent_id = new.agent_id
      WHERE new.id = ? AND old.id = ? AND old.id <> new.id`,
    [newFactId, oldFactId],
  );
  return row ?? null;
}

/**
 * Records that `newFactId` is to replace `oldFactId`, on the new fact's history, without retiring the old
 * one: for a proposal, whose old fact stays live until a person approves it. The old text, or null when there
 * is no such pair.
 */
export async function recordReplaceIntent(
  writes: Writes,
  newFactId: string,
  oldFactId: string,
  actor: Actor,
  placeLabel: string | null,
  at: string,
): Promise<string | null> {
  const bodies = await replacedBody(writes, newFactId, oldFactId);
  if (!bodies) return null;
  // Recorded once: the same write again (a retry) would show was → now twice in the History after approve.
  if (!(await replaceEventOf(writes, newFactId, oldFactId))) {
    await writes.run(REPLACE_EVENT_SQL, [newFactId, actor.id, actor.kind, actor.name, bodies.old, bodies.now, oldFactId, placeLabel, at]);
  }
  return bodies.old;
}

/** Whether `newFactId`'s history already says it replaces (or is to replace) `oldFactId`. */
async function replaceEventOf(writes: Writes, newFactId: string, oldFactId: string): Promise<boolean> {
  const [row] = await writes.all<{ id: number }>(
    "SELECT id FROM fact_events WHERE fact_id = ? AND kind = 'replace' AND other_fact_id = ? LIMIT 1",
    [newFactId, oldFactId],
  );
  return row !== undefined;
}

/**
 * Retires `oldFactId` into `newFactId`, in the caller's transaction: its history events move to the new fact,
 * a `replace` event there says was → now (unless one recorded at propose time already does), and the old row
 * is deleted; the old text comes back. Nothing happens, and null comes back, when the old fact is gone or is
 * not the same agent's.
 * The caller has applied the rules: agentMayForget at the write, or a person's decision at approve.
 */
export async function retireReplaced(
  writes: Writes,
  newFactId: string,
  oldFactId: string,
  actor: Actor,
  at: string,
  placeLabel: string | null = null,
): Promise<string | null> {
  const bodies = await replacedBody(writes, newFactId, oldFactId);
  if (!bodies) return null;
  const intent = await replaceEventOf(writes, newFactId, oldFactId);
  await writes.run("UPDATE fact_events SET fact_id = ? WHERE fact_id = ?", [newFactId, oldFactId]);
  if (!intent) {
    await writes.run(REPLACE_EVENT_SQL, [newFactId, actor.id, actor.kind, actor.name, bodies.old, bodies.now, oldFactId, placeLabel, at]);
  }
  await writes.run("DELETE FROM facts WHERE id = ?", [oldFactId]);
  return bodies.old;
}

/**
 * At approve: retires every fact the proposal was written to replace that is still there (proposals.ts
 * calls it in the approving transaction). With `rule` (the approver's changeableSql), only a fact the
 * approver may change is retired: approving a channel fact must not retire a workspace fact only owners
 * curate. An intent not carried out leaves no replace event behind. Returns the ids retired.
 */
export async function retireIntendedReplacements(
  writes: Writes,
  factId: string,
  actor: Actor,
  at: string,
  rule?: SqlPart,
): Promise<string[]> {
  const intents = await writes.all<{ otherFactId: string }>(
    `SELECT DISTINCT other_fact_id AS otherFactId FROM fact_events
      WHERE fact_id = ? AND kind = 'replace' AND other_fact_id IS NOT NULL
        AND EXISTS (SELECT 1 FROM facts WHERE facts.id = fact_events.other_fact_id)`,
    [factId],
  );
  const retired: string[] = [];
  for (const { otherFactId } of intents) {
    const [allowed] = rule
      ? await writes.all<{ id: string }>(`SELECT facts.id FROM facts WHERE facts.id = ? AND ${rule.text}`, [otherFactId, ...rule.args])
      : [{ id: otherFactId }];
    if (allowed && (await retireReplaced(writes, factId, otherFactId, actor, at)) !== null) retired.push(otherFactId);
    else {
      await writes.run("DELETE FROM fact_events WHERE fact_id = ? AND kind = 'replace' AND other_fact_id = ?", [factId, otherFactId]);
    }
  }
  return retired;
}

/**
 * The fact that now stands where `oldFactId` stood, when the agent may recall it in this place today; null
 * otherwise, so a caller who may not see the new fact learns nothing from the old id.
 */
export async function replacedBy(db: Conn, agentId: string, oldFactId: string, place: Place, today: string): Promise<string | null> {
  const recallableHere = recallableSql(place, today);
  const row = await readOne<{ id: string }>(
    db,
    `SELECT facts.id FROM fact_events e JOIN facts ON facts.id = e.fact_id
      WHERE e.other_fact_id = ? AND e.kind = 'replace' AND facts.agent_id = ? AND facts.forgotten_at IS NULL
        AND facts.proposed_at IS NULL AND ${recallableHere.text}
        AND NOT EXISTS (SELECT 1 FROM facts old WHERE old.id = e.other_fact_id)
      LIMIT 1`,
    [oldFactId, agentId, ...recallableHere.args],
  );
  return row?.id ?? null;
}
