/**
 * "Delete my account" (issue #16). One transaction: the person's facts (scope
 * person) are erased as erasePersonFacts does; every session ends; where their
 * name stood on what stays — history, the labels of facts they told or that came
 * from their messages, the owners' audit list — it reads "a former member"; the
 * facts they told the workspace stay with it; then the account goes (its
 * memberships, channel places, sign-in links with it). Refused while they are the
 * last owner of a workspace with other people (make someone else owner first);
 * a workspace where they are the only person goes with them, once its name is
 * typed back.
 *
 *   deleteAccount(db, userId, { dryRun, confirmWorkspaceNames? }) → DeleteAccountResult
 *     dry_run:        { plan }                      what would happen
 *     last_owner:     { plan, workspaces }          refused: make someone else owner of these first
 *     confirm_names:  { plan, workspaces }          refused: type these workspaces' names to delete them too
 *     deleted:        { plan }
 *     not_found
 */
import { foldWal, writeTransaction, type Conn, type SqlArg, type Writes } from "@/db/client";
import { handleOf } from "@/lib/person-name";
import { derivedColumns, sameTermsBack } from "@/lib/memory/derived-columns";
import { erasePersonFactsIn } from "./erase-person-facts";
import { FORMER_MEMBER, type AgentErasure, type WorkspaceRef } from "./types";

export type DeleteAccountOptions = {
  dryRun: boolean;
  /** The names of the workspaces where the person is alone, typed back to delete them with the account. */
  confirmWorkspaceNames?: readonly string[];
};

export type DeleteAccountPlan = {
  /** Facts kept just for them, per agent: erased. */
  personFacts: AgentErasure[];
  personFactsTotal: number;
  /** Where their name becomes "a former member": facts' source labels, and history events. */
  renamed: { facts: number; events: number };
  /** Facts they told a workspace they share with others: these stay. */
  toldFactsStay: number;
  /** Workspaces they leave (others remain in them). */
  leaves: WorkspaceRef[];
  /** Workspaces where they are the only person: deleted with them, once their names are typed back. */
  deletesWorkspaces: WorkspaceRef[];
  /** Workspaces with other people where they are the only owner: the deletion is refused until someone else is owner. */
  lastOwnerOf: WorkspaceRef[];
};

export type DeleteAccountResult =
  | { status: "dry_run"; plan: DeleteAccountPlan }
  | { status: "last_owner"; plan: DeleteAccountPlan; workspaces: WorkspaceRef[] }
  | { status: "confirm_names"; plan: DeleteAccountPlan; workspaces: WorkspaceRef[] }
  | { status: "deleted"; plan: DeleteAccountPlan }
  | { status: "not_found" };

type MemberRow = { id: string; name: string; role: string; others: number; otherOwners: number; sameHandle: number };

const inList = (n: number) => Array.from({ length: n }, () => "?").join(", ");

/** The workspaces of the plan and the ids whose labels name the person by handle (no one else there has it). */
async function planOf(writes: Writes, userId: string, handle: string) {
  const rows = await writes.all<MemberRow>(
    `SELECT w.id AS id, w.name AS name, m.role AS role,
        (SELECT count(*) FROM memberships o WHERE o.workspace_id = w.id AND o.user_id <> m.user_id) AS others,
        (SELECT count(*) FROM memberships o WHERE o.workspace_id = w.id AND o.user_id <> m.user_id AND o.role = 'owner') AS otherOwners,
        (SELECT count(*) FROM memberships o JOIN users u ON u.id = o.user_id
          WHERE o.workspace_id = w.id AND o.user_id <> m.user_id AND lower(substr(u.email, 1, instr(u.email || '@', '@') - 1)) = lower(?)) AS sameHandle
      FROM memberships m JOIN workspaces w ON w.id = m.workspace_id WHERE m.user_id = ? ORDER BY w.name, w.id`,
    [handle, userId],
  );
  const ref = (r: MemberRow): WorkspaceRef => ({ id: r.id, name: r.name });
  const alone = rows.filter((r) => Number(r.others) === 0);
  const shared = rows.filter((r) => Number(r.others) > 0);
  return {
    leaves: shared.map(ref),
    deletesWorkspaces: alone.map(ref),
    lastOwnerOf: shared.filter((r) => r.role === "owner" && Number(r.otherOwners) === 0).map(ref),
    // A label "@ana in #general" names whoever has that handle there: renamed only where no one else has it.
    labelWorkspaces: shared.filter((r) => Number(r.sameHandle) === 0).map((r) => r.id),
    sharedIds: shared.map((r) => r.id),
  };
}

function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type LabelledFact = { seq: number; id: string; scope: string; pinned: number; body: string; scopeLabel: string | null; sourceLabel: string };

/** The facts whose source label names the person: told by them ("@ana"), or from their messages ("@ana in #general"). */
function labelledSql(userId: string, handle: string, labelWorkspaces: string[]): { text: string; args: SqlArg[] } {
  const messages = labelWorkspaces.length
    ? ` OR (source_kind = 'message' AND workspace_id IN (${inList(labelWorkspaces.length)}) AND source_label LIKE ? ESCAPE '\\')`
    : "";
  return {
    text: `scope <> 'person' AND source_label IS NOT NULL AND ((source_kind = 'person' AND source_ref = ?)${messages})`,
    args: labelWorkspaces.length ? [userId, ...labelWorkspaces, `@${likeLiteral(handle)} in %`] : [userId],
  };
}

/** "@ana" → "a former member", "@ana in #general" → "a former member in #general". */
function renamedLabel(label: string, handle: string): string {
  const prefix = `@${handle}`;
  return label.toLowerCase().startsWith(prefix.toLowerCase()) ? FORMER_MEMBER + label.slice(prefix.length) : FORMER_MEMBER;
}

export async function deleteAccount(db: Conn, userId: string, options: DeleteAccountOptions): Promise<DeleteAccountResult> {
  const result = await deleteIn(db, userId, options);
  if (result.status === "deleted") await foldWal(db);
  return result;
}

function deleteIn(db: Conn, userId: string, options: DeleteAccountOptions): Promise<DeleteAccountResult> {
  return writeTransaction(db, async (writes): Promise<DeleteAccountResult> => {
    const [user] = await writes.all<{ email: string }>("SELECT email FROM users WHERE id = ?", [userId]);
    if (!user) return { status: "not_found" };
    const handle = handleOf(user.email);
    const where = await planOf(writes, userId, handle);

    const [erasable] = await writes.all<{ n: number }>("SELECT count(*) AS n FROM facts WHERE scope = 'person' AND scope_ref = ?", [userId]);
    const personFacts = await writes.all<{ workspaceId: string; workspaceName: string; agentId: string; agentHandle: string; agentName: string; n: number }>(
      `SELECT f.workspace_id AS workspaceId, w.name AS workspaceName, f.agent_id AS agentId, a.handle AS agentHandle, a.name AS agentName, count(*) AS n
        FROM facts f JOIN agents a ON a.id = f.agent_id JOIN workspaces w ON w.id = f.workspace_id
        WHERE f.scope = 'person' AND f.scope_ref = ? GROUP BY f.workspace_id, f.agent_id ORDER BY w.name, a.handle`,
      [userId],
    );
    const labelled = labelledSql(userId, handle, where.labelWorkspaces);
    const shared = where.sharedIds;
    const inShared = (column: string) => (shared.length ? `${column} IN (${inList(shared.length)})` : "0");
    const [renamedFacts] = await writes.all<{ n: number }>(
      `SELECT count(*) AS n FROM facts WHERE ${labelled.text} AND ${inShared("workspace_id")}`,
      [...labelled.args, ...shared],
    );
    const [renamedEvents] = await writes.all<{ n: number }>(
      `SELECT count(*) AS n FROM fact_events e JOIN facts f ON f.id = e.fact_id
        WHERE e.actor_kind = 'user' AND e.actor_id = ? AND f.scope <> 'person' AND ${inShared("f.workspace_id")}`,
      [userId, ...shared],
    );
    const [told] = await writes.all<{ n: number }>(
      `SELECT count(*) AS n FROM facts WHERE scope <> 'person' AND ${inShared("workspace_id")}
        AND ((created_by_kind = 'user' AND created_by = ?) OR (source_kind = 'person' AND source_ref = ?))`,
      [...shared, userId, userId],
    );
    const plan: DeleteAccountPlan = {
      personFacts: personFacts.map((r) => ({
        workspace: { id: r.workspaceId, name: r.workspaceName },
        agent: { id: r.agentId, handle: r.agentHandle, name: r.agentName },
        facts: Number(r.n),
      })),
      personFactsTotal: Number(erasable?.n ?? 0),
      renamed: { facts: Number(renamedFacts?.n ?? 0), events: Number(renamedEvents?.n ?? 0) },
      toldFactsStay: Number(told?.n ?? 0),
      leaves: where.leaves,
      deletesWorkspaces: where.deletesWorkspaces,
      lastOwnerOf: where.lastOwnerOf,
    };
    if (options.dryRun) return { status: "dry_run", plan };
    if (plan.lastOwnerOf.length) return { status: "last_owner", plan, workspaces: plan.lastOwnerOf };
    const typed = new Set((options.confirmWorkspaceNames ?? []).map((name) => name.trim()));
    const unconfirmed = plan.deletesWorkspaces.filter((w) => !typed.has(w.name.trim()));
    if (unconfirmed.length) return { status: "confirm_names", plan, workspaces: unconfirmed };

    // Their workspaces alone go first, whole (the cascades take agents, facts, history, keys).
    if (plan.deletesWorkspaces.length) {
      await writes.run(
        `DELETE FROM workspaces WHERE id IN (${inList(plan.deletesWorkspaces.length)})`,
        plan.deletesWorkspaces.map((w) => w.id),
      );
    }
    await erasePersonFactsIn(writes, userId, null, { id: userId, name: FORMER_MEMBER }, FORMER_MEMBER);

    // Labels are part of a fact's terms (terms.ts) and of its prompt line: each renamed fact gets its terms and its
    // line's size (token-budget.ts) again, so neither a posting nor the line's hash is left of the handle.
    const facts = await writes.all<LabelledFact>(
      `SELECT seq, id, scope, pinned, body, scope_label AS scopeLabel, source_label AS sourceLabel FROM facts WHERE ${labelled.text}`,
      labelled.args,
    );
    for (const fact of facts) {
      const label = renamedLabel(fact.sourceLabel, handle);
      const derived = derivedColumns({ ...fact, sourceLabel: label, pinned: !!fact.pinned });
      await writes.run("UPDATE facts SET source_label = ?, terms = ?, line_size = ? WHERE seq = ?", [
        label,
        derived.terms,
        derived.lineSize,
        fact.seq,
      ]);
      const back = sameTermsBack(fact.id, derived.terms);
      await writes.run(back.text, back.args);
    }
    await writes.run("UPDATE fact_events SET actor_name = ? WHERE actor_kind = 'user' AND actor_id = ?", [FORMER_MEMBER, userId]);
    // A waiting webhook delivery copied the name into its payload (drizzle/0017); an endpoint that is down or off sends it later.
    await writes.run(
      `UPDATE webhook_deliveries SET payload = json_set(payload, '$.data.actor.name', ?)
        WHERE status = 'pending' AND payload IS NOT NULL
          AND json_extract(payload, '$.data.actor.kind') = 'user' AND json_extract(payload, '$.data.actor.id') = ?`,
      [FORMER_MEMBER, userId],
    );
    if (where.labelWorkspaces.length) {
      // Where an agent acted on their words: "@ana in #general".
      await writes.run(
        `UPDATE fact_events SET place_label = ? || substr(place_label, ?)
          WHERE place_label LIKE ? ESCAPE '\\' AND fact_id IN (SELECT id FROM facts WHERE workspace_id IN (${inList(where.labelWorkspaces.length)}))`,
        [FORMER_MEMBER, handle.length + 2, `@${likeLiteral(handle)} in %`, ...where.labelWorkspaces],
      );
    }
    await writes.run("UPDATE audit_events SET actor_name = ? WHERE actor_id = ?", [FORMER_MEMBER, userId]);
    const at = new Date().toISOString();
    for (const ws of plan.leaves) {
      await writes.run("INSERT INTO audit_events (workspace_id, actor_id, actor_name, action, summary, at) VALUES (?, ?, ?, ?, ?, ?)", [
        ws.id,
        userId,
        FORMER_MEMBER,
        "account.delete",
        "A member deleted their account; facts they told stay, named as a former member",
        at,
      ]);
    }
    // Sessions end in the same transaction, before the row goes: a token checked meanwhile fails either way.
    await writes.run("UPDATE users SET session_version = session_version + 1 WHERE id = ?", [userId]);
    await writes.run("DELETE FROM users WHERE id = ?", [userId]);
    return { status: "deleted", plan };
  });
}
