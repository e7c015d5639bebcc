/**
 * The limits as a guesser and the real person meet them, on a real database file
 * per test and a clock the test moves.
 */
import { describe, expect, it } from "vitest";
import { signInFailures } from "@/db/schema";
import { tempDbForTests } from "@/lib/testing/temp-db";
import {
  FIRST_WAIT_MS,
  LONGEST_WAIT_MS,
  PER_ACCOUNT,
  PER_ADDRESS,
  PER_PAIR,
  SIGN_UPS_PER_ADDRESS,
  WORKSPACES_PER_PERSON,
  signInSucceeded,
  startSignIn,
  startSignUp,
  startWorkspace,
  tryAgainIn,
  waitBefore,
  type Turn,
} from "./throttle";

const t = tempDbForTests({ each: true });

const T0 = Date.parse("2026-11-30T09:00:00Z");
const SECOND = 1000;

/** A wrong password: the attempt is let through and stays counted. */
async function fail(email: string, address: string | null, now: number): Promise<void> {
  const turn = await startSignIn(t.db, email, address, now);
  expect(turn, `${email} from ${address} at +${now - T0} ms`).toMatchObject({ allowed: true });
}

const refused = (waitMs: number): Turn => ({ allowed: false, waitMs });

describe("sign-in from one address to one account", () => {
  it("lets a few slips through, then each guess waits twice as long as the last, up to 15 minutes", async () => {
    let now = T0;
    for (let i = 0; i < PER_PAIR.free; i++) await fail("ana@acme.test", "198.51.100.7", now);
    expect(await startSignIn(t.db, "ana@acme.test", "198.51.100.7", now)).toEqual(refused(FIRST_WAIT_MS));
    now += FIRST_WAIT_MS;
    await fail("ana@acme.test", "198.51.100.7", now);
    expect(await startSignIn(t.db, "ana@acme.test", "198.51.100.7", now + SECOND)).toEqual(refused(SECOND));
    now += 2 * SECOND;
    await fail("ana@acme.test", "198.51.100.7", now);
    expect(await startSignIn(t.db, "ana@acme.test", "198.51.100.7", now)).toEqual(refused(4 * SECOND));
    for (let i = 0; i < 12; i++) {
      now += LONGEST_WAIT_MS;
      await fail("ana@acme.test", "198.51.100.7", now);
    }
    expect(await startSignIn(t.db, "ana@acme.test", "198.51.100.7", now)).toEqual(refused(LONGEST_WAIT_MS));
  });

  it("never checks a refused guess, and guessing while refused does not lengthen the wait", async () => {
    for (let i = 0; i < PER_PAIR.free; i++) await fail("max@acme.test", "198.51.100.8", T0);
    for (let i = 0; i < 20; i++) expect((await startSignIn(t.db, "max@acme.test", "198.51.100.8", T0 + 500)).allowed).toBe(false);
    await fail("max@acme.test", "198.51.100.8", T0 + FIRST_WAIT_MS);
  });

  it("counts 30 guesses sent at once as 30: only the free ones are checked", async () => {
    const turns = await Promise.all(
      Array.from({ length: 30 }, () => startSignIn(t.db, "gus@acme.test", "198.51.100.9", T0)),
    );
    expect(turns.filter((turn) => turn.allowed)).toHaveLength(PER_PAIR.free);
    expect(turns.filter((turn) => !turn.allowed)).toHaveLength(30 - PER_PAIR.free);
  });

  it("starts afresh after the right password, and after a day without guesses", async () => {
    for (let i = 0; i < PER_PAIR.free; i++) await fail("ana@acme.test", "198.51.100.7", T0);
    const right = await startSignIn(t.db, "ana@acme.test", "198.51.100.7", T0 + FIRST_WAIT_MS);
    if (!right.allowed) throw new Error("the right password was refused");
    await signInSucceeded(t.db, "ana@acme.test", "198.51.100.7", right.attempt);
    // The pair's slate is clean; the account's and the address's five real failures still count.
    expect(await t.db.select().from(signInFailures)).toHaveLength(2 * PER_PAIR.free);
    for (let i = 0; i < PER_PAIR.free; i++) await fail("ana@acme.test", "198.51.100.7", T0 + FIRST_WAIT_MS);

    const tomorrow = T0 + FIRST_WAIT_MS + PER_PAIR.windowMs + 1;
    for (let i = 0; i < PER_PAIR.free; i++) await fail("ana@acme.test", "198.51.100.7", tomorrow);
  });

  it("does not slow the real person at another address, nor the guesser's other accounts", async () => {
    for (let i = 0; i < PER_PAIR.free + 3; i++) await fail("ana@acme.test", "203.0.113.66", T0 + i * LONGEST_WAIT_MS);
    const later = T0 + (PER_PAIR.free + 2) * LONGEST_WAIT_MS;
    expect((await startSignIn(t.db, "ana@acme.test", "203.0.113.66", later)).allowed).toBe(false);
    await fail("ana@acme.test", "192.0.2.10", later);
    await fail("max@acme.test", "203.0.113.66", later);
  });

  it("counts every unknown address as one, so no address still means a limit", async () => {
    for (let i = 0; i < PER_PAIR.free; i++) await fail("ana@acme.test", null, T0);
    expect(await startSignIn(t.db, "ana@acme.test", null, T0)).toEqual(refused(FIRST_WAIT_MS));
  });
});

describe("sign-in across addresses and accounts", () => {
  it("slows guesses at one account spread over many addresses, past a much looser ceiling", async () => {
    for (let i = 0; i < PER_ACCOUNT.free; i++) await fail("olivia@acme.test", `10.1.${i >> 8}.${i & 255}`, T0);
    expect(await startSignIn(t.db, "olivia@acme.test", "10.9.9.9", T0)).toEqual(refused(FIRST_WAIT_MS));
    await fail("olivia@acme.test", "10.9.9.9", T0 + FIRST_WAIT_MS);
    expect(await startSignIn(t.db, "olivia@acme.test", "10.9.9.9", T0 + PER_ACCOUNT.windowMs + FIRST_WAIT_MS)).toMatchObject({ allowed: true });
  });

  it("slows one address trying many accounts, and no other address", async () => {
    for (let i = 0; i < PER_ADDRESS.free; i++) await fail(`person${i}@acme.test`, "203.0.113.5", T0);
    expect(await startSignIn(t.db, "someone-new@acme.test", "203.0.113.5", T0)).toEqual(refused(FIRST_WAIT_MS));
    await fail("someone-new@acme.test", "203.0.113.6", T0);
  });
});

describe("sign-up", () => {
  it("counts attempts per address, those sent at once included, then makes each wait", async () => {
    const turns = await Promise.all(Array.from({ length: 25 }, () => startSignUp(t.db, "203.0.113.9", T0)));
    expect(turns.filter((turn) => turn.allowed)).toHaveLength(SIGN_UPS_PER_ADDRESS.free);
    expect(await startSignUp(t.db, "203.0.113.9", T0)).toEqual(refused(FIRST_WAIT_MS));
    expect((await startSignUp(t.db, "203.0.113.10", T0)).allowed).toBe(true);
    expect((await startSignUp(t.db, "203.0.113.9", T0 + FIRST_WAIT_MS)).allowed).toBe(true);
  });

  it("counts every unknown address as one", async () => {
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS.free; i++) expect((await startSignUp(t.db, null, T0)).allowed).toBe(true);
    expect((await startSignUp(t.db, null, T0)).allowed).toBe(false);
  });
});

describe("starting workspaces", () => {
  it("lets one person start a few an hour, then none until the oldest is an hour old", async () => {
    for (let i = 0; i < WORKSPACES_PER_PERSON.free; i++) {
      expect((await startWorkspace(t.db, "ana", T0 + i * 60 * SECOND)).allowed).toBe(true);
    }
    const late = T0 + 30 * 60 * SECOND;
    expect(await startWorkspace(t.db, "ana", late)).toEqual(refused(WORKSPACES_PER_PERSON.windowMs - 30 * 60 * SECOND));
    expect((await startWorkspace(t.db, "max", late)).allowed).toBe(true);
    expect((await startWorkspace(t.db, "ana", T0 + WORKSPACES_PER_PERSON.windowMs)).allowed).toBe(true);
  });
});

describe("waits", () => {
  it("double from the first past the free ones, and stop at the ceiling", () => {
    expect([4, 5, 6, 7, 15, 1000].map((before) => waitBefore(before, PER_PAIR))).toEqual([
      0,
      FIRST_WAIT_MS,
      2 * FIRST_WAIT_MS,
      4 * FIRST_WAIT_MS,
      LONGEST_WAIT_MS,
      LONGEST_WAIT_MS,
    ]);
  });

  it.each([
    [1, "Try again in 1 second."],
    [1500, "Try again in 2 seconds."],
    [59_000, "Try again in 59 seconds."],
    [60_000, "Try again in 1 minute."],
    [61_000, "Try again in 2 minutes."],
    [LONGEST_WAIT_MS, "Try again in 15 minutes."],
  ])("are told to people in words: %i ms", (ms, words) => {
    expect(tryAgainIn(ms)).toBe(words);
  });
});
