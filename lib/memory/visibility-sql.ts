/**
 * The SQL twins of `visibleTo` and `changeableBy` in rules.ts, so that every list,
 * read and update applies the rule inside the query itself — never "read rows,
 * then filter". Both also re-check that the viewer is still a member of the
 * workspace, so a stale session sees nothing.
 *
 * They refer to the `facts` table by name; use them in queries over `facts`.
 */
import { sql, type SQL } from "drizzle-orm";

/** A signed-in person looking at one workspace's memory. Ownership is read from the database, not passed in. */
export type SqlViewer = { workspaceId: string; userId: string };

/** Channels of the workspace this person can read: public ones, and those they are in. */
export function readableChannelIds(viewer: SqlViewer): SQL {
  return sql`SELECT c.id FROM channels c WHERE c.workspace_id = ${viewer.workspaceId} AND (
    c.kind = 'public'
    OR EXISTS (SELECT 1 FROM channel_members cm WHERE cm.channel_id = c.id AND cm.user_id = ${viewer.userId}))`;
}

function isMember(viewer: SqlViewer): SQL {
  return sql`EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = ${viewer.workspaceId} AND m.user_id = ${viewer.userId})`;
}

function isOwner(viewer: SqlViewer): SQL {
  return sql`EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = ${viewer.workspaceId} AND m.user_id = ${viewer.userId} AND m.role = 'owner')`;
}

/** `visibleTo` in SQL: workspace facts to members, channel facts to readers, person facts to that person. */
export function visibleSql(viewer: SqlViewer): SQL {
  return sql`(facts.workspace_id = ${viewer.workspaceId} AND ${isMember(viewer)} AND (
    facts.scope = 'workspace'
    OR (facts.scope = 'channel' AND facts.scope_ref IN (${readableChannelIds(viewer)}))
    OR (facts.scope = 'person' AND facts.scope_ref = ${viewer.userId})))`;
}

/** `changeableBy` in SQL: workspace facts by owners only, any other fact by whoever sees it. */
export function changeableSql(viewer: SqlViewer): SQL {
  return sql`(${visibleSql(viewer)} AND (facts.scope <> 'workspace' OR ${isOwner(viewer)}))`;
}
