/**
 * A person tells an agent a fact from the Memory page: kept "Just me", for a
 * channel they can read, or — owners only — for the whole workspace. Facts
 * people add are pinned. Whether the person may write there is checked in SQL
 * inside the write's own transaction.
 */
import { sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import type { Scope } from "./rules";
import { readableChannelIds } from "./visibility-sql";
import { remember, type PersonActor, type RememberResult } from "./writes";

export type TellInput = { text: unknown; scope: Scope; channelId?: string | null };

async function isOwner(tx: Conn, viewer: PersonActor): Promise<boolean> {
  const rows = await tx.all(sql`SELECT 1 FROM memberships
    WHERE workspace_id = ${viewer.workspaceId} AND user_id = ${viewer.userId} AND role = 'owner'`);
  return rows.length > 0;
}

async function readableChannel(tx: Conn, viewer: PersonActor, channelId: string) {
  const [row] = await tx.all<{ id: string; name: string }>(sql`SELECT id, name FROM channels
    WHERE id = ${channelId} AND id IN (${readableChannelIds(viewer)})
      AND EXISTS (SELECT 1 FROM memberships WHERE workspace_id = ${viewer.workspaceId} AND user_id = ${viewer.userId})`);
  return row ?? null;
}

async function isMember(tx: Conn, viewer: PersonActor): Promise<boolean> {
  const rows = await tx.all(sql`SELECT 1 FROM memberships
    WHERE workspace_id = ${viewer.workspaceId} AND user_id = ${viewer.userId}`);
  return rows.length > 0;
}

export async function tellFact(
  db: Conn,
  viewer: PersonActor,
  agent: { id: string; workspaceId: string },
  input: TellInput,
): Promise<RememberResult> {
  if (agent.workspaceId !== viewer.workspaceId) return { status: "not_allowed" };
  const base = {
    agentId: agent.id,
    workspaceId: agent.workspaceId,
    body: input.text,
    source: { kind: "person" as const, ref: viewer.userId, label: `@${viewer.handle}`, channelId: null },
    by: { kind: "user" as const, id: viewer.userId, name: viewer.name },
    pinned: true,
  };

  if (input.scope === "workspace") {
    return remember(db, { ...base, scope: "workspace", scopeRef: "", scopeLabel: null }, (tx) => isOwner(tx, viewer));
  }
  if (input.scope === "channel") {
    const channelId = input.channelId ?? "";
    let name = "";
    return remember(
      db,
      // The label is filled in once the channel is known to be readable.
      {
        ...base,
        scope: "channel",
        scopeRef: channelId,
        get scopeLabel() {
          return `#${name}`;
        },
        source: { ...base.source, channelId },
      },
      async (tx) => {
        const channel = await readableChannel(tx, viewer, channelId);
        if (channel) name = channel.name;
        return channel !== null;
      },
    );
  }
  return remember(db, { ...base, scope: "person", scopeRef: viewer.userId, scopeLabel: viewer.name }, (tx) =>
    isMember(tx, viewer),
  );
}
