/**
 * For integration tests that change the demo: a freshly seeded database file for
 * every test of the calling file, so no test sees another's changes, plus the
 * two questions most of them ask — what does this person see, and what would
 * Scout recall for them in this channel.
 */
import { and, eq } from "drizzle-orm";
import { afterEach, beforeEach } from "vitest";
import type { Db } from "@/db/client";
import { channelMembers, channels, memberships } from "@/db/schema";
import type { Viewer } from "@/lib/memory/rules";
import { derivePlace } from "@/lib/memory/place";
import { listVisibleFacts, recall } from "@/lib/memory/store";
import { createDemoTempDb, type TempDb } from "./temp-db";

/** Registers the hooks; call the returned function inside a test for that test's database. */
export function freshDemoForEachTest(): () => Db {
  let t: TempDb | undefined;
  beforeEach(async () => {
    t = await createDemoTempDb();
  });
  afterEach(() => {
    t?.close();
    t = undefined;
  });
  return () => {
    if (!t) throw new Error("the demo database exists only inside a test");
    return t.db;
  };
}

/** The bodies of Scout's live facts this person may see on the Memory page (first 100). */
export async function seenBy(db: Db, userId: string, workspaceId = "acme", agentId = "scout"): Promise<string[]> {
  const { facts } = await listVisibleFacts(db, { workspaceId, id: userId }, agentId, { limit: 100 });
  return facts.map((fact) => fact.body);
}

/** The bodies Scout would recall in a channel for an asker; throws (PlaceError) where it would refuse. */
export async function recalledFor(db: Db, channelId: string, askerId: string, workspaceId = "acme", agentId = "scout") {
  const { place } = await derivePlace(db, workspaceId, channelId, askerId);
  return (await recall(db, agentId, place)).map((fact) => fact.body);
}

/**
 * The pure rules' viewer built straight from the tables — public channels plus the
 * person's own channel rows — to compare the SQL's answers with; null for a non-member.
 */
export async function viewerFromTables(db: Db, workspaceId: string, userId: string): Promise<Viewer | null> {
  const [membership] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
  if (!membership) return null;
  const publicChannels = await db
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.workspaceId, workspaceId), eq(channels.kind, "public")));
  const joined = await db
    .select({ id: channelMembers.channelId })
    .from(channelMembers)
    .where(and(eq(channelMembers.workspaceId, workspaceId), eq(channelMembers.userId, userId)));
  const readable = new Set([...publicChannels, ...joined].map((c) => c.id));
  return { workspaceId, id: userId, owner: membership.role === "owner", canRead: (id) => readable.has(id) };
}
