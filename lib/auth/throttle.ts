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

/** Accounts one address may try to create per window: each attempt costs an argon2 hash. */
export const MAX_SIGN_UPS_PER_ADDRESS = 10;

/** Whether this address has tried to create too many accounts lately. */
export async function signUpBlocked(db: Conn, address: string | null, now = Date.now()): Promise<boolean> {
  if (!address) return false;
  const [row] = await db
    .select({ n: count() })
    .from(signInFailures)
    .where(and(eq(signInFailures.key, `signup:${address}`), gte(signInFailures.at, windowStart(now))));
  return row.n >= MAX_SIGN_UPS_PER_ADDRESS;
}

/** Counts one sign-up attempt against the address (kept with the sign-in counts, same window). */
export async function recordSignUpAttempt(db: Conn, address: string | null, now = Date.now()): Promise<void> {
  if (!address) return;
  const at = new Date(now).toISOString();
  await db.transaction((tx) => tx.insert(signInFailures).values({ key: `signup:${address}`, at }));
}
