/**
 * Failed sign-ins are counted in the database (not in process memory), so the
 * limit holds across several server processes: per email, and per address.
 */
import { and, eq, gte, inArray, lt, count } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { signInFailures } from "@/db/schema";

export const FAILURE_WINDOW_MS = 15 * 60 * 1000;
export const MAX_FAILURES_PER_EMAIL = 10;
export const MAX_FAILURES_PER_ADDRESS = 50;

function keys(email: string, address: string | null): string[] {
  return address ? [`email:${email}`, `address:${address}`] : [`email:${email}`];
}

function windowStart(now: number): string {
  return new Date(now - FAILURE_WINDOW_MS).toISOString();
}

/** Whether this email or address has failed too often lately. */
export async function signInBlocked(db: Conn, email: string, address: string | null, now = Date.now()) {
  const since = windowStart(now);
  const [byEmail] = await db
    .select({ n: count() })
    .from(signInFailures)
    .where(and(eq(signInFailures.key, `email:${email}`), gte(signInFailures.at, since)));
  if (byEmail.n >= MAX_FAILURES_PER_EMAIL) return true;
  if (!address) return false;
  const [byAddress] = await db
    .select({ n: count() })
    .from(signInFailures)
    .where(and(eq(signInFailures.key, `address:${address}`), gte(signInFailures.at, since)));
  return byAddress.n >= MAX_FAILURES_PER_ADDRESS;
}

/** Counts one failure against the email and the address, and drops counts older than the window. */
export async function recordSignInFailure(db: Conn, email: string, address: string | null, now = Date.now()) {
  const at = new Date(now).toISOString();
  // Writes go through a transaction so they take their turn with the process's other writers (db/client.ts).
  await db.transaction(async (tx) => {
    await tx.insert(signInFailures).values(keys(email, address).map((key) => ({ key, at })));
    await tx.delete(signInFailures).where(lt(signInFailures.at, windowStart(now)));
  });
}

/** A successful sign-in clears the email's count. */
export async function clearSignInFailures(db: Conn, email: string) {
  await db.transaction((tx) => tx.delete(signInFailures).where(inArray(signInFailures.key, [`email:${email}`])));
}
