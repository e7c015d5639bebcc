import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";
import {
  FAILURE_WINDOW_MS,
  MAX_FAILURES_PER_EMAIL,
  MAX_SIGN_UPS_PER_ADDRESS,
  clearSignInFailures,
  recordSignInFailure,
  recordSignUpAttempt,
  signInBlocked,
  signUpBlocked,
} from "./throttle";

let t: TempDb;
beforeAll(async () => {
  t = await createTempDb();
});
afterAll(() => t.close());

describe("sign-in throttling", () => {
  it("blocks an email after too many failures in the window, and a success clears it", async () => {
    const now = Date.now();
    for (let i = 0; i < MAX_FAILURES_PER_EMAIL - 1; i++) await recordSignInFailure(t.db, "ana@acme.test", "10.0.0.1", now);
    expect(await signInBlocked(t.db, "ana@acme.test", null, now)).toBe(false);
    await recordSignInFailure(t.db, "ana@acme.test", "10.0.0.1", now);
    expect(await signInBlocked(t.db, "ana@acme.test", null, now)).toBe(true);
    expect(await signInBlocked(t.db, "max@acme.test", null, now)).toBe(false);
    expect(await signInBlocked(t.db, "ana@acme.test", null, now + FAILURE_WINDOW_MS + 1)).toBe(false);
    await clearSignInFailures(t.db, "ana@acme.test");
    expect(await signInBlocked(t.db, "ana@acme.test", null, now)).toBe(false);
  });
});

describe("sign-up throttling", () => {
  it("blocks an address after too many account attempts in the window, and only that address", async () => {
    const now = Date.now();
    for (let i = 0; i < MAX_SIGN_UPS_PER_ADDRESS; i++) await recordSignUpAttempt(t.db, "203.0.113.9", now);
    expect(await signUpBlocked(t.db, "203.0.113.9", now)).toBe(true);
    expect(await signUpBlocked(t.db, "203.0.113.10", now)).toBe(false);
    expect(await signUpBlocked(t.db, "203.0.113.9", now + FAILURE_WINDOW_MS + 1)).toBe(false);
    expect(await signUpBlocked(t.db, null, now)).toBe(false);
  });
});
