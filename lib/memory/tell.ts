/**
 * A person tells an agent a fact from the Memory page: kept "Just me", for a
 * channel they can read, or — owners only — for the whole workspace. Facts
 * people add are pinned. Whether the person may write there is checked in SQL
 * inside the write's own transaction.
 */
import type { Conn, SqlPart, Writes } from "@/db/client";
import type { Scope } from "./rules";
import { canReadChannelSql, memberSql, ownerSql } from "./rules-sql";
import { remember, type PersonActor, type RememberResult } from "./writes";

/** `validUntil`: the fact's last day ("YYYY-MM-DD", checked by the caller), or none. */
export type TellInput = { text: unknown; scope: Scope; channelId?: string | null; validUntil?: string | null };

async function holds(writes: Writes, condition: SqlPart): Promise<boolean> {
  const rows = await writes.all(`SELECT 1 WHERE ${condition.text}`, condition.args);
  return rows.length > 0;
}

async function readableChannel(writes: Writes, viewer: PersonActor, channelId: string) {
  const readable = canReadChannelSql(viewer, "id");
  const [row] = await writes.all<{ id: string; name: string }>(
    `SELECT id, name FROM channels WHERE id = ? AND ${readable.text}`,
    [channelId, ...readable.args],
  );
  return row ?? null;
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
    source: { kind: "person" as const, ref: viewer.id, label: `@${viewer.handle}`, channelId: null },
    by: { kind: "user" as const, id: viewer.id, name: viewer.name },
    pinned: true,
    validUntil: input.validUntil,
  };

  if (input.scope === "workspace") {
    return remember(db, { ...base, scope: "workspace", scopeRef: "", scopeLabel: null }, (writes) => holds(writes, ownerSql(viewer)));
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
      async (writes) => {
        const channel = await readableChannel(writes, viewer, channelId);
        if (channel) name = channel.name;
        return channel !== null;
      },
    );
  }
  return remember(db, { ...base, scope: "person", scopeRef: viewer.id, scopeLabel: viewer.name }, (writes) =>
    holds(writes, memberSql(viewer)),
  );
}
