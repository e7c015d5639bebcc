/**
 * The SQL twin of each rule in rules.ts that a query applies, so that every list,
 * read and change applies the rule inside the query itself — never "read rows, then
 * filter". Each is named after the pure rule it mirrors, and rules-sql.test.ts
 * checks that both give the same verdict on every fact. Every check of a person
 * also re-checks that they are still a member of the workspace, so a stale session
 * sees nothing.
 *
 * The fact twins refer to the `facts` table by name; use them in queries over `facts`.
 */
import { allOf, type SqlPart } from "@/db/client";
import { soloPerson, utcDay, type Place, type Viewer } from "./rules";

/**
 * The part of a `Viewer` the SQL twins take: who, in which workspace. Ownership and
 * readable channels are read from the database in the query, not passed in.
 */
export type ViewerRef = Pick<Viewer, "workspaceId" | "id">;

/** The person is a member of the workspace. */
export function memberSql(viewer: ViewerRef): SqlPart {
  return {
    text: "EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = ? AND m.user_id = ?)",
    args: [viewer.workspaceId, viewer.id],
  };
}

/** The person is an owner of the workspace: what `viewer.owner` says in rules.ts. */
export function ownerSql(viewer: ViewerRef): SqlPart {
  return {
    text: "EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = ? AND m.user_id = ? AND m.role = 'owner')",
    args: [viewer.workspaceId, viewer.id],
  };
}

/**
 * The ids of the channels of the workspace this person can read — public ones, and
 * those they are in: `viewer.canRead` in rules.ts. Not a membership check on its own.
 */
export function readableChannelIdsSql(viewer: ViewerRef): SqlPart {
  return {
    text: `SELECT c.id FROM channels c WHERE c.workspace_id = ? AND (
    c.kind = 'public'
    OR EXISTS (SELECT 1 FROM channel_members cm WHERE cm.channel_id = c.id AND cm.user_id = ?))`,
    args: [viewer.workspaceId, viewer.id],
  };
}

/** A channel of the workspace, with `channelIdColumn` its id, that this member can read. */
export function canReadChannelSql(viewer: ViewerRef, channelIdColumn: string): SqlPart {
  const readable = readableChannelIdsSql(viewer);
  return allOf([{ text: `${channelIdColumn} IN (${readable.text})`, args: readable.args }, memberSql(viewer)]);
}

/** `visibleTo`: workspace facts to members, channel facts to readers, person facts to that person. */
export function visibleSql(viewer: ViewerRef): SqlPart {
  const member = memberSql(viewer);
  const readable = readableChannelIdsSql(viewer);
  return {
    text: `(facts.workspace_id = ? AND ${member.text} AND (
    facts.scope = 'workspace'
    OR (facts.scope = 'channel' AND facts.scope_ref IN (${readable.text}))
    OR (facts.scope = 'person' AND facts.scope_ref = ?)))`,
    args: [viewer.workspaceId, ...member.args, ...readable.args, viewer.id],
  };
}

/** `changeableBy`: workspace facts by owners only, any other fact by whoever sees it. */
export function changeableSql(viewer: ViewerRef): SqlPart {
  const visible = visibleSql(viewer);
  const owner = ownerSql(viewer);
  return { text: `(${visible.text} AND (facts.scope <> 'workspace' OR ${owner.text}))`, args: [...visible.args, ...owner.args] };
}

/** `shownTo`: a live fact to whoever sees it, a proposal only to whoever may decide it. */
export function shownSql(viewer: ViewerRef): SqlPart {
  const visible = visibleSql(viewer);
  const changeable = changeableSql(viewer);
  return {
    text: `((facts.proposed_at IS NULL AND ${visible.text}) OR (facts.proposed_at IS NOT NULL AND ${changeable.text}))`,
    args: [...visible.args, ...changeable.args],
  };
}

/**
 * `expired`, negated: no end date, or one not before `today`. One parameter, today.
 * Plain text so the recall queries' fixed statements can embed it.
 */
export const UNEXPIRED_SQL = "(facts.valid_until IS NULL OR facts.valid_until >= ?)";

/** `!expired(fact, today)`. */
export function unexpiredSql(today: string): SqlPart {
  return { text: UNEXPIRED_SQL, args: [today] };
}

/** Not a proposal waiting for a person: what `recallable` asks of `proposedAt`. No parameters. */
export const NOT_PROPOSED_SQL = "facts.proposed_at IS NULL";

/**
 * `recallable`: workspace facts anywhere in the workspace, channel facts in their channel, person facts in a
 * solo DM with that person — none of them expired as of `today`, none a proposal.
 */
export function recallableSql(place: Place, today: string = utcDay()): SqlPart {
  return {
    text: `(facts.workspace_id = ? AND ${UNEXPIRED_SQL} AND ${NOT_PROPOSED_SQL} AND (
    facts.scope = 'workspace'
    OR (facts.scope = 'channel' AND facts.scope_ref = ?)
    OR (facts.scope = 'person' AND facts.scope_ref = ?)))`,
    // Outside a solo DM, `= NULL`: the last branch matches nothing.
    args: [place.workspaceId, today, place.channelId, soloPerson(place)],
  };
}

/**
 * `agentMayForget` saying "allowed": a live fact of this agent, recallable here today,
 * not pinned, kept by the agent from what it heard, and a workspace fact only
 * from a public channel.
 */
export function agentMayForgetSql(agentId: string, place: Place, today: string = utcDay()): SqlPart {
  const recallableHere = recallableSql(place, today);
  return {
    text: `(facts.agent_id = ? AND facts.forgotten_at IS NULL AND ${recallableHere.text}
    AND facts.pinned = 0 AND facts.created_by_kind = 'agent' AND facts.source_kind <> 'person'
    AND (facts.scope <> 'workspace' OR ? = 'public'))`,
    args: [agentId, ...recallableHere.args, place.kind],
  };
}
