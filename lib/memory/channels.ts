/** The conversations a person can read, named the way the Memory page shows them. */
import { readAll, type Conn } from "@/db/client";
import { displayNameSql } from "@/lib/person-name";
import { channelLabel } from "./labels";
import type { ChannelKind } from "./rules";
import { canReadChannelSql, type ViewerRef } from "./rules-sql";

export type ReadableChannel = {
  id: string;
  name: string;
  kind: ChannelKind;
  /** "#general", "Your DM", "DM with Max Mills and Ana Alves" (labels.ts channelLabel). */
  label: string;
  /** A DM with this person alone: where their own facts are recalled. */
  isOwnDm: boolean;
};

type Row = { id: string; name: string; kind: ChannelKind; people: string };

export async function readableChannels(db: Conn, viewer: ViewerRef): Promise<ReadableChannel[]> {
  const readable = canReadChannelSql(viewer, "c.id");
  const rows = await readAll<Row>(
    db,
    `SELECT c.id, c.name, c.kind,
      (SELECT json_group_array(json_object('id', u.id, 'name', ${displayNameSql("u.name", "u.email")}))
         FROM channel_members cm JOIN users u ON u.id = cm.user_id WHERE cm.channel_id = c.id) AS people
    FROM channels c
    WHERE ${readable.text}
    ORDER BY c.kind <> 'public', c.kind <> 'private', c.name`,
    readable.args,
  );
  return rows.map((row) => {
    const people = (JSON.parse(row.people) as { id: string; name: string }[]).sort((a, b) => a.name.localeCompare(b.name));
    const isOwnDm = row.kind === "dm" && people.length === 1 && people[0].id === viewer.id;
    const others = people.filter((p) => p.id !== viewer.id).map((p) => p.name);
    const label = channelLabel(row.kind, row.name, isOwnDm, others.length ? others : people.map((p) => p.name));
    return { id: row.id, name: row.name, kind: row.kind, label, isOwnDm };
  });
}
