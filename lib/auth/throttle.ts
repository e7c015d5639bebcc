/**
 * Sign-in, sign-up and workspace-starting attempts, counted in the database (not
 * in process memory) so the limits hold across several server processes.
 *
 * Each attempt is written first and counted in the same write transaction, and
 * only then decided, so attempts sent at once are each counted against the ones
 * before them. An attempt that is let through stays counted as a failure until it
 * proves otherwise (the right password clears it); one that is refused leaves no
 * row, so waiting attempts never lengthen anyone's wait but the pair's own.
 *
 * Failed sign-ins slow down rather than lock: after a few free tries, each further
 * one waits twice as long as the last, up to a ceiling.
 */
import { eq, or, sql } from "drizzle-orm";
import { writeTransaction, type Conn, type Writes } from "@/db/client";
import { signInFailures } from "@/db/schema";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** So many attempts per key in the window go through at once; each one past that waits (waitBefore). */
export type Limit = { free: number; windowMs: number };

/** The wait after the first attempt past the free ones; it doubles with each further attempt. */
export const FIRST_WAIT_MS = SECOND;
/** Long enough to make guessing hopeless (96 guesses a day), short enough that a person who mistyped gets back in. */
export const LONGEST_WAIT_MS = 15 * MINUTE;

/**
 * One account from one address: the person at their own machine. Five slips are
 * free; a day's memory means a patient guesser stays at one try per 15 minutes.
 */
export const PER_PAIR: Limit = { free: 5, windowMs: 24 * HOUR };
/**
 * One account from every address: only a guesser spread over many addresses gets
 * near it. Loose, because whoever reaches it slows the real person too.
 */
export const PER_ACCOUNT: Limit = { free: 100, windowMs: 15 * MINUTE };
/** One address across accounts (trying one password on many): an office behind one address rarely fails this often. */
export const PER_ADDRESS: Limit = { free: 50, windowMs: 15 * MINUTE };
/** Accounts one address may try to create: each attempt costs an argon2 hash. */
export const SIGN_UPS_PER_ADDRESS: Limit = { free: 10, windowMs: HOUR };
/** Workspaces one person may start in the window, then none until the oldest leaves it: a flood of them is spam. */
export const WORKSPACES_PER_PERSON: Limit = { free: 10, windowMs: HOUR };

/** Rows older than the longest window count for nothing. */
const KEPT_MS = Math.max(PER_PAIR.windowMs, PER_ACCOUNT.windowMs, PER_ADDRESS.windowMs, SIGN_UPS_PER_ADDRESS.windowMs, WORKSPACES_PER_PERSON.windowMs);

/** How long an attempt must wait after the newest counted one, when `before` attempts are counted already. */
export function waitBefore(before: number, limit: Limit): number {
  if (before < limit.free) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** (before - limit.free), LONGEST_WAIT_MS);
}

// An unknown address is one bucket: better a shared wait than no count at all.
const addressOf = (address: string | null) => address ?? "unknown";
const pairKey = (email: string, address: string | null) => `pair:${email} ${addressOf(address)}`;
const pairPrefix = (email: string) => `pair:${email} `;
const accountKey = (email: string) => `account:${email}`;

type Counted = { key: string; limit: Limit; wait: (before: number, rows: Row) => number };
type Row = { n: number; newest: string | null; oldest: string | null };

/** Growing waits: measured from the newest attempt. */
const slowing = (key: string, limit: Limit): Counted => ({
  key,
  limit,
  wait: (before, row) => (row.newest ? Date.parse(row.newest) + waitBefore(before, limit) : 0),
});

/** A plain ceiling: full until the oldest attempt leaves the window. */
const ceiling = (key: string, limit: Limit): Counted => ({
  key,
  limit,
  wait: (before, row) => (before >= limit.free && row.oldest ? Date.parse(row.oldest) + limit.windowMs : 0),
});

/** Attempt rows just written; a sign-in that succeeds takes them back. */
export type Attempt = { ids: number[] };
export type Turn = { allowed: true; attempt: Attempt } | { allowed: false; waitMs: number };

/** Writes one attempt under each key, counts each key's window, and keeps the attempt only if every key lets it through. */
async function takeTurn(writes: Writes, counted: Counted[], now: number): Promise<Turn> {
  const at = new Date(now).toISOString();
  await writes.run("DELETE FROM sign_in_failures WHERE at < ?", [new Date(now - KEPT_MS).toISOString()]);
  const ids: number[] = [];
  for (const { key } of counted) {
    const [row] = await writes.all<{ id: number }>("INSERT INTO sign_in_failures (key, at) VALUES (?, ?) RETURNING id", [key, at]);
    ids.push(row.id);
  }
  let until = now;
  for (const [i, { key, limit, wait }] of counted.entries()) {
    const [row] = await writes.all<Row>(
      "SELECT count(*) AS n, max(at) AS newest, min(at) AS oldest FROM sign_in_failures WHERE key = ? AND at >= ? AND id <> ?",
      [key, new Date(now - limit.windowMs).toISOString(), ids[i]],
    );
    until = Math.max(until, wait(row.n, row));
  }
  if (until > now) {
    await writes.run(`DELETE FROM sign_in_failures WHERE id IN (${ids.map(() => "?").join(", ")})`, ids);
    return { allowed: false, waitMs: until - now };
  }
  return { allowed: true, attempt: { ids } };
}

/**
 * A sign-in attempt, counted before the password is checked: refused (with the wait)
 * when this account from this address, this account from anywhere, or this address
 * across accounts has failed too often lately. An unknown address counts only for
 * the account and its "unknown" pair.
 */
export function startSignIn(db: Conn, email: string, address: string | null, now = Date.now()): Promise<Turn> {
  const counted = [slowing(pairKey(email, address), PER_PAIR), slowing(accountKey(email), PER_ACCOUNT)];
  if (address) counted.push(slowing(`address:${address}`, PER_ADDRESS));
  return writeTransaction(db, (writes) => takeTurn(writes, counted, now));
}

/** The right password: this attempt was no failure, and this account from this address starts afresh. */
export async function signInSucceeded(db: Conn, email: string, address: string | null, attempt: Attempt): Promise<void> {
  await writeTransaction(db, (writes) =>
    writes.run(`DELETE FROM sign_in_failures WHERE key = ? OR id IN (${attempt.ids.map(() => "?").join(", ")})`, [
      pairKey(email, address),
      ...attempt.ids,
    ]),
  );
}

/** Forgets every failed sign-in of an account (a new password): call inside the caller's transaction. */
export async function forgetSignInFailures(tx: Conn, email: string): Promise<void> {
  const prefix = pairPrefix(email);
  await tx
    .delete(signInFailures)
    .where(or(eq(signInFailures.key, accountKey(email)), sql`substr(${signInFailures.key}, 1, ${prefix.length}) = ${prefix}`));
}

/** An attempt to create an account from this address, counted whether or not it succeeds. */
export function startSignUp(db: Conn, address: string | null, now = Date.now()): Promise<Turn> {
  return writeTransaction(db, (writes) => takeTurn(writes, [slowing(`signup:${addressOf(address)}`, SIGN_UPS_PER_ADDRESS)], now));
}

/** A person starting a workspace: call inside the transaction that creates it, so a refusal or a failure writes nothing. */
export function startWorkspace(tx: Conn, userId: string, now = Date.now()): Promise<Turn> {
  return writeTransaction(tx, (writes) => takeTurn(writes, [ceiling(`workspaces:${userId}`, WORKSPACES_PER_PERSON)], now));
}

/** "Try again in 3 seconds." / "Try again in 15 minutes.": a wait in the largest unit that is at least one, rounded up. */
export function tryAgainIn(waitMs: number): string {
  const seconds = Math.max(1, Math.ceil(waitMs / SECOND));
  if (seconds < 60) return `Try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`;
}
