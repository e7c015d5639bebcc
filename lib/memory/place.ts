/**
 * The place of a recall or remember, derived from Mnemo's own tables.
 * A caller names a channel and an asker; the kind and the people come from here.
 * Anything that does not add up is refused — never guessed as "a DM with the asker".
 */
import { readOne, type Conn, type SqlPart } from "@/db/client";
import { displayName, handleOf } from "@/lib/person-name";
import type { ChannelKind, Place } from "./rules";
import { memberSql } from "./rules-sql";

export class PlaceError extends Error {
  constructor(
    readonly code: "channel_not_found" | "asker_not_member" | "cannot_read",
    message: string,
  ) {
    super(message);
    this.name = "PlaceError";
  }
}

export type Asker = { id: string; name: string; handle: string };

export type PlaceInfo = {
  place: Place;
  channel: { id: string; name: string; kind: ChannelKind };
  /** The asking person, when one was named. */
  asker: Asker | null;
};

type PlaceRow = {
  id: string;
  name: string;
  kind: string;
  people: string;
  asker_member: number;
  asker_in_channel: number;
  asker_name: string | null;
  asker_email: string | null;
};

/** The one query a place is built from: the channel, its people, and what the asker may do there. */
function placeQuery(workspaceId: string, channelId: string, asker: string): SqlPart {
  const askerIsMember = memberSql({ workspaceId, id: asker });
  return {
    text: `
  SELECT c.id, c.name, c.kind,
    (SELECT json_group_array(user_id) FROM
      (SELECT user_id FROM channel_members WHERE channel_id = c.id ORDER BY user_id)) AS people,
    ${askerIsMember.text} AS asker_member,
    EXISTS (SELECT 1 FROM channel_members cm WHERE cm.channel_id = c.id AND cm.user_id = ?) AS asker_in_channel,
    u.name AS asker_name, u.email AS asker_email
  FROM channels c
  LEFT JOIN users u ON u.id = ?
  WHERE c.id = ? AND c.workspace_id = ?`,
    args: [...askerIsMember.args, asker, asker, channelId, workspaceId],
  };
}

/**
 * Builds the place for `channelId` in `workspaceId` as `askerId` sees it, in one
 * query. Throws PlaceError when the channel is not this workspace's, the asker is
 * not a member, or the asker cannot read the channel.
 */
export async function derivePlace(
  db: Conn,
  workspaceId: string,
  channelId: string,
  askerId: string | null,
): Promise<PlaceInfo> {
  const query = placeQuery(workspaceId, channelId, askerId ?? "");
  const row = await readOne<PlaceRow>(db, query.text, query.args);

  if (!row) throw new PlaceError("channel_not_found", "There is no such channel in this workspace.");
  const kind = row.kind as ChannelKind;
  if (kind !== "public" && kind !== "private" && kind !== "dm") {
    throw new PlaceError("channel_not_found", "There is no such channel in this workspace.");
  }
  const members = JSON.parse(row.people) as string[];
  const channel = { id: row.id, name: row.name, kind };

  if (askerId === null) {
    return {
      place: { workspaceId, channelId, kind, people: kind === "public" ? [] : members },
      channel,
      asker: null,
    };
  }
  if (!row.asker_member || row.asker_email === null) {
    throw new PlaceError("asker_not_member", "There is no such person in this workspace.");
  }
  if (kind !== "public" && !row.asker_in_channel) {
    throw new PlaceError("cannot_read", "The asker cannot read this channel.");
  }
  return {
    place: { workspaceId, channelId, kind, people: kind === "public" ? [askerId] : members },
    channel,
    asker: { id: askerId, name: displayName({ name: row.asker_name, email: row.asker_email }), handle: handleOf(row.asker_email) },
  };
}
