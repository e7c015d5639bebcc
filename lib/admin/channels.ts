/**
 * Channels as owners manage them: create, rename, set kind, add and remove people.
 * Who sees a channel's facts and where they are recalled is derived from these
 * rows on every request (lib/memory/place.ts, rules-sql.ts), so a change
 * here takes effect on the next recall — nothing to invalidate.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { channelMembers, channels, facts, memberships, users, type ChannelKind } from "@/db/schema";
import { newId } from "@/lib/ids";
import { displayName, displayNameSql } from "@/lib/person-name";
import { runPlain } from "@/db/plain-sql";
import { derivedColumns, sameTermsBack } from "@/lib/memory/derived-columns";
import { graceCutoff } from "@/lib/memory/writes";
import { recordAudit, type AuditActor } from "./audit";

export type ChannelWithPeople = {
  id: string;
  name: string;
  kind: ChannelKind;
  people: { id: string; name: string }[];
  /** What a reader of the channel sees of it, as a number: owners weigh an addition without reading the facts. */
  facts: number;
};

type Row = { id: string; name: string; kind: ChannelKind; people: string; facts: number };

/**
 * The facts of every agent kept for one channel that its readers can see: the
 * live ones and those still in "Recently forgotten", which readers can open and
 * restore. A count only, never the text.
 */
function channelFactCount(workspaceId: string, channelId: SQL | string): SQL<number> {
  return sql<number>`(SELECT count(*) FROM facts f
    WHERE f.workspace_id = ${workspaceId} AND f.scope = 'channel' AND f.scope_ref = ${channelId}
      AND (f.forgotten_at IS NULL OR f.forgotten_at >= ${graceCutoff()}))`;
}

const factCount = (n: number) => `${n} ${n === 1 ? "fact" : "facts"}`;

/** Every channel of the workspace with its people, public first, then by name. */
export async function listChannels(db: Conn, workspaceId: string): Promise<ChannelWithPeople[]> {
  const rows = await db.all<Row>(sql`
    SELECT c.id, c.name, c.kind,
      (SELECT json_group_array(json_object('id', u.id, 'name', ${sql.raw(displayNameSql("u.name", "u.email"))})) FROM
        (SELECT u.id, u.name, u.email FROM channel_members cm JOIN users u ON u.id = cm.user_id
          WHERE cm.channel_id = c.id ORDER BY ${sql.raw(displayNameSql("u.name", "u.email"))}) u) AS people,
      ${channelFactCount(workspaceId, sql`c.id`)} AS facts
    FROM channels c
    WHERE c.workspace_id = ${workspaceId}
    ORDER BY c.kind <> 'public', c.kind <> 'private', c.name`);
  return rows.map((row) => ({ ...row, people: JSON.parse(row.people) as ChannelWithPeople["people"], facts: Number(row.facts) }));
}

async function channelOf(tx: Conn, workspaceId: string, channelId: string) {
  const [row] = await tx
    .select({ id: channels.id, name: channels.name, kind: channels.kind })
    .from(channels)
    .where(and(eq(channels.id, channelId), eq(channels.workspaceId, workspaceId)))
    .limit(1);
  return row ?? null;
}

async function nameTaken(tx: Conn, workspaceId: string, name: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.workspaceId, workspaceId), eq(channels.name, name)))
    .limit(1);
  return Boolean(row);
}

export type CreateChannelResult = { status: "created"; id: string } | { status: "name_taken" };

/** A new channel with no one in it yet. Its id is what agents send to the API. */
export async function createChannel(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  input: { name: string; kind: ChannelKind },
): Promise<CreateChannelResult> {
  return db.transaction(async (tx) => {
    if (await nameTaken(tx, workspaceId, input.name)) return { status: "name_taken" };
    const id = newId("ch");
    await tx.insert(channels).values({ id, workspaceId, name: input.name, kind: input.kind });
    await recordAudit(tx, workspaceId, actor, "channel.create", `#${input.name} (${input.kind})`);
    return { status: "created", id };
  });
}

export type ChannelChangeResult = { status: "changed" | "unchanged" } | { status: "name_taken" | "not_found" };

/**
 * Renames a channel, and its facts' scope labels with it: a label names the
 * channel as it is now, so a fact never shows a stale name. Source labels keep the
 * name it had when said: they record where it was said.
 */
export async function renameChannel(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  channelId: string,
  name: string,
): Promise<ChannelChangeResult> {
  return db.transaction(async (tx) => {
    const channel = await channelOf(tx, workspaceId, channelId);
    if (!channel) return { status: "not_found" };
    if (channel.name === name) return { status: "unchanged" };
    if (await nameTaken(tx, workspaceId, name)) return { status: "name_taken" };
    await tx.update(channels).set({ name }).where(eq(channels.id, channelId));
    // Each fact's terms hold its labels' words (ranked recall finds "#support" facts by "support"): recomputed per fact.
    const label = `#${name}`;
    const labelled = await tx
      .select({
        seq: facts.seq,
        id: facts.id,
        scope: facts.scope,
        pinned: facts.pinned,
        body: facts.body,
        sourceLabel: facts.sourceLabel,
      })
      .from(facts)
      .where(and(eq(facts.workspaceId, workspaceId), eq(facts.scope, "channel"), eq(facts.scopeRef, channelId)));
    for (const fact of labelled) {
      const derived = derivedColumns({ ...fact, scopeLabel: label });
      await tx.update(facts).set({ scopeLabel: label, ...derived }).where(eq(facts.seq, fact.seq));
      const back = sameTermsBack(fact.id, derived.terms);
      await runPlain(tx, back.text, back.args);
    }
    await recordAudit(tx, workspaceId, actor, "channel.rename", `#${channel.name} → #${name}`);
    return { status: "changed" };
  });
}

/** Public, private or DM: who can read the channel, and so who sees its facts, from the next request on. */
export async function setChannelKind(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  channelId: string,
  kind: ChannelKind,
): Promise<ChannelChangeResult> {
  return db.transaction(async (tx) => {
    const channel = await channelOf(tx, workspaceId, channelId);
    if (!channel) return { status: "not_found" };
    if (channel.kind === kind) return { status: "unchanged" };
    await tx.update(channels).set({ kind }).where(eq(channels.id, channelId));
    await recordAudit(tx, workspaceId, actor, "channel.kind", `#${channel.name}: ${channel.kind} → ${kind}`);
    return { status: "changed" };
  });
}

export type ChannelMemberResult =
  | { status: "removed" | "unchanged"; name: string }
  | { status: "not_found" };

export type AddChannelMemberResult =
  /** `reveals`: the facts they could not see before and can now (none in a public channel, which every member reads). */
  | { status: "added"; name: string; channel: string; reveals: number }
  | { status: "unchanged"; name: string }
  /** Nothing written: the owner has not confirmed that exactly this many facts become theirs to see. */
  | { status: "needs_confirmation"; name: string; channel: string; reveals: number }
  | { status: "not_found" };

/**
 * Puts a member of the workspace in a channel. Anyone else is "not found",
 * whatever the reason. In a private channel or DM the person will see every fact
 * kept there, so the owner names how many they were shown (`confirmedFacts`) and
 * the add goes ahead only while that is still the number: the page's warning can
 * be neither skipped nor outdated.
 */
export async function addChannelMember(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  channelId: string,
  userId: string,
  confirmedFacts?: number,
): Promise<AddChannelMemberResult> {
  return db.transaction(async (tx) => {
    const channel = await channelOf(tx, workspaceId, channelId);
    const person = channel ? await memberName(tx, workspaceId, userId) : null;
    if (!channel || !person) return { status: "not_found" };
    if (await isInChannel(tx, channelId, userId)) return { status: "unchanged", name: person };
    const [{ n }] = await tx.all<{ n: number }>(sql`SELECT ${channelFactCount(workspaceId, channelId)} AS n`);
    const reveals = channel.kind === "public" ? 0 : Number(n);
    if (reveals > 0 && confirmedFacts !== reveals) {
      return { status: "needs_confirmation", name: person, channel: channel.name, reveals };
    }
    const added = await tx
      .insert(channelMembers)
      .values({ channelId, workspaceId, userId })
      .onConflictDoNothing()
      .returning({ userId: channelMembers.userId });
    if (!added.length) return { status: "unchanged", name: person };
    const seen = channel.kind === "public" ? "" : ` (can now see ${factCount(reveals)})`;
    await recordAudit(tx, workspaceId, actor, "channel.member.add", `${person} to #${channel.name}${seen}`);
    return { status: "added", name: person, channel: channel.name, reveals };
  });
}

async function isInChannel(tx: Conn, channelId: string, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ userId: channelMembers.userId })
    .from(channelMembers)
    .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
    .limit(1);
  return Boolean(row);
}

/** Takes a person out of a channel: its private facts are theirs no more from the next request on. */
export async function removeChannelMember(
  db: Conn,
  actor: AuditActor,
  workspaceId: string,
  channelId: string,
  userId: string,
): Promise<ChannelMemberResult> {
  return db.transaction(async (tx) => {
    const channel = await channelOf(tx, workspaceId, channelId);
    const person = channel ? await memberName(tx, workspaceId, userId) : null;
    if (!channel || !person) return { status: "not_found" };
    const removed = await tx
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, channelId), eq(channelMembers.userId, userId)))
      .returning({ userId: channelMembers.userId });
    if (!removed.length) return { status: "unchanged", name: person };
    await recordAudit(tx, workspaceId, actor, "channel.member.remove", `${person} from #${channel.name}`);
    return { status: "removed", name: person };
  });
}

async function memberName(tx: Conn, workspaceId: string, userId: string): Promise<string | null> {
  const [row] = await tx
    .select({ name: users.name, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  return row ? displayName(row) : null;
}
