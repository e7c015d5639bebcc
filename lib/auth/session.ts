/**
 * Who is asking, re-checked in the database on every page and action: a valid
 * cookie for a person who no longer exists, or who left the workspace, gets nothing.
 */
import { and, eq } from "drizzle-orm";
import { notFound, redirect } from "next/navigation";
import type { Session } from "next-auth";
import { cache } from "react";
import { getDb } from "@/db";
import { memberships, users, workspaces, type Role } from "@/db/schema";
import { agentByHandle, type Agent } from "@/lib/agents";
import { displayName, handleOf } from "@/lib/person-name";
import { auth } from "./index";

export type SignedInUser = { id: string; name: string; email: string; handle: string };
export type Member = SignedInUser & {
  workspace: { id: string; name: string };
  role: Role;
};

/**
 * The signed-in person, or null. Cached for one request. A token issued under an
 * older session version (signed out elsewhere, password reset, removed from
 * their last workspace — lib/auth/session-version.ts) is no session at all.
 */
export const currentUser = cache(async (): Promise<SignedInUser | null> => {
  const session = (await auth()) as (Session & { sessionVersion?: number }) | null;
  const id = session?.user?.id;
  if (!id) return null;
  const [user] = await getDb()
    .select({ id: users.id, name: users.name, email: users.email, sessionVersion: users.sessionVersion })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  if (!user || user.sessionVersion !== session.sessionVersion) return null;
  return { id: user.id, name: displayName(user), email: user.email, handle: handleOf(user.email) };
});

/** The signed-in person; everyone else goes to sign-in. */
export async function requireUser(): Promise<SignedInUser> {
  const user = await currentUser();
  if (!user) redirect("/signin");
  return user;
}

/** The person's membership of a workspace, or null — a non-member learns nothing, not even that it exists. */
export const membershipOf = cache(async (userId: string, workspaceId: string) => {
  const [row] = await getDb()
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.userId, userId), eq(memberships.workspaceId, workspaceId)))
    .limit(1);
  return row ?? null;
});

/** The person as a member of the workspace, or null when they are not one. */
async function memberOf(user: SignedInUser, workspaceId: string): Promise<Member | null> {
  const membership = await membershipOf(user.id, workspaceId);
  if (!membership) return null;
  return { ...user, workspace: { id: membership.id, name: membership.name }, role: membership.role };
}

/** The signed-in member of a workspace; a 404 for anyone else. */
export async function requireMember(workspaceId: string): Promise<Member> {
  const member = await memberOf(await requireUser(), workspaceId);
  if (!member) notFound();
  return member;
}

export type MemberAndAgent = { member: Member; agent: Agent };

/**
 * The person as a member of the workspace, with its agent of this handle — what
 * every page, action and route about one agent's memory starts from. Null when
 * either is missing: a non-member learns nothing, not even whether the agent exists.
 */
export async function memberAndAgent(user: SignedInUser, workspaceId: string, handle: string): Promise<MemberAndAgent | null> {
  const member = await memberOf(user, workspaceId);
  const agent = member ? await agentByHandle(getDb(), workspaceId, handle) : null;
  return member && agent ? { member, agent } : null;
}

/** The signed-in member and the workspace's agent of this handle; a 404 for anyone else. */
export async function requireMemberAndAgent(workspaceId: string, handle: string): Promise<MemberAndAgent> {
  const found = await memberAndAgent(await requireUser(), workspaceId, handle);
  if (!found) notFound();
  return found;
}

/** An owner of the workspace; a 404 for members and everyone else, as if the page did not exist. */
export async function requireOwner(workspaceId: string): Promise<Member> {
  const member = await requireMember(workspaceId);
  if (member.role !== "owner") notFound();
  return member;
}
