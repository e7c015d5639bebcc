/**
 * Sessions that really end. A session is a signed token in a cookie, so deleting
 * the cookie on one device ends nothing on another, nor a copy an attacker took.
 * Each person has a session version in the database; every token carries the
 * version it was issued under, and every page and action compares the two
 * (`currentUser`, which reads the person's row anyway, so the check costs no
 * extra query). Signing out, a password reset and leaving one's last workspace
 * bump it, ending every session of that person at once.
 */
import { eq, sql } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { users } from "@/db/schema";

/**
 * A token unused this long expires (each page renews it: proxy.ts), so a team
 * tool used daily never asks again, while a forgotten laptop's session lapses.
 */
export const SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60;
/** However much it is used, a session ends this long after sign-in: sign in again. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export async function sessionVersionOf(db: Conn, userId: string): Promise<number> {
  const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.version ?? 0;
}

/** Ends every session of this person. Call inside the caller's transaction when there is one. */
export async function endSessions(tx: Conn, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(eq(users.id, userId));
}

/** What a session token carries besides the person's id. */
export type SessionStamp = { sv?: number; since?: number };

/** Whether a token issued at `since` is past the session's whole lifetime. */
export function sessionTooOld(stamp: SessionStamp, now = Date.now()): boolean {
  return typeof stamp.since !== "number" || now - stamp.since > SESSION_LIFETIME_MS;
}
