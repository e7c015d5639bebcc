/** The conversations a person can read, named the way the Memory page shows them. */
import { sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import type { ChannelKind } from "./rules";
import { readableChannelIds, type SqlViewer } from "./visibility-sql";

export type ReadableChannel = {
  id: string;
  name: string;
  kind: ChannelKind;
  /** "#general", "Your direct message", "Group message with Max Mills and Ana Alves". */
  label: string;
  /** A DM with this person alone: where their own facts are recalled. */
  isOwnDm: boolean;
};

type Row = { id: string; name: string; kind: ChannelKind; people: string };

function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export async function readableChannels(db: Conn, viewer: SqlViewer): Promise<ReadableChannel[]> {
  const rows = await db.all<Row>(sql`
    SELECT c.id, c.name, c.kind,
      (SELECT json_group_array(json_object('id', u.id, 'name', coalesce(u.name, u.email)))
         FROM channel_members cm JOIN users u ON u.id = cm.user_id WHERE cm.channel_id = c.id) AS people
    FROM channels c
    WHERE c.id IN (${readableChannelIds(viewer)})
      AND EXISTS (SELECT 1 FROM memberships m WHERE m.workspace_id = ${viewer.workspaceId} AND m.user_id = ${viewer.userId})
    ORDER BY c.kind <> 'public', c.kind <> 'private', c.name`);
  return rows.map((row) => {
    const people = (JSON.parse(row.people) as { id: string; name: string }[]).sort((a, b) => a.name.localeCompare(b.name));
    const isOwnDm = row.kind === "dm" && people.length === 1 && people[0].id === viewer.userId;
    const others = people.filter((p) => p.id !== viewer.userId).map((p) => p.name);
    let label = `#${row.name}`;
    if (row.kind === "dm") {
      label = isOwnDm ? "Your direct message" : `Group message with ${joinNames(others.length ? others : people.map((p) => p.name))}`;
    }
    return { id: row.id, name: row.name, kind: row.kind, label, isOwnDm };
  });
}
