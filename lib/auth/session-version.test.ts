/**
 * Sessions that end: a token carries the session version it was issued under, and
 * the person read on every request (currentUser) is nobody once the database's
 * version moved on — after sign-out, a password reset, or removal from the last
 * workspace. Real demo database per test; the one double is the cookie's content
 * (what Auth.js would decode from it).
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { resetPassword } from "@/lib/admin/accounts";
import { OPERATOR } from "@/lib/admin/audit";
import { removePerson } from "@/lib/admin/people";
import { appDemoDbForEachTest } from "@/lib/testing/app-db";
import { SESSION_LIFETIME_MS, sessionTooOld, sessionVersionOf } from "./session-version";

const doubles = vi.hoisted(() => ({
  /** What the session cookie says: the person and the version it was issued under. */
  token: null as { id: string; sessionVersion?: number } | null,
}));

vi.mock("@/lib/auth", () => ({
  auth: async () => (doubles.token ? { user: { id: doubles.token.id }, sessionVersion: doubles.token.sessionVersion } : null),
  signOut: async () => {},
}));
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const testDb = appDemoDbForEachTest();

beforeEach(() => {
  doubles.token = null;
});

/** currentUser is cached per request by React; in a test each call is its own request. */
async function whoIsSignedIn(): Promise<string | null> {
  vi.resetModules();
  const { currentUser } = await import("./session");
  return (await currentUser())?.id ?? null;
}

describe("a session token", () => {
  it("is a session while its version is the person's", async () => {
    doubles.token = { id: "max", sessionVersion: await sessionVersionOf(testDb().db, "max") };
    expect(await whoIsSignedIn()).toBe("max");
  });

  it("from before versions existed, or with another version, is no session", async () => {
    doubles.token = { id: "max" };
    expect(await whoIsSignedIn()).toBeNull();
    doubles.token = { id: "max", sessionVersion: 7 };
    expect(await whoIsSignedIn()).toBeNull();
  });

  it("copied before sign-out is no session after it, on any device", async () => {
    const copied = { id: "max", sessionVersion: await sessionVersionOf(testDb().db, "max") };
    doubles.token = copied;
    vi.resetModules();
    const { signOutAction } = await import("@/app/(app)/actions");
    await signOutAction();
    doubles.token = copied;
    expect(await whoIsSignedIn()).toBeNull();
    // Signing in again issues a token under the new version.
    doubles.token = { id: "max", sessionVersion: await sessionVersionOf(testDb().db, "max") };
    expect(await whoIsSignedIn()).toBe("max");
  });

  it("ends with a password reset", async () => {
    const copied = { id: "ana", sessionVersion: await sessionVersionOf(testDb().db, "ana") };
    await resetPassword(testDb().db, OPERATOR, "ana@acme.test", "new hash");
    doubles.token = copied;
    expect(await whoIsSignedIn()).toBeNull();
  });

  it("ends when the person leaves their last workspace", async () => {
    const copied = { id: "gus", sessionVersion: await sessionVersionOf(testDb().db, "gus") };
    await removePerson(testDb().db, { id: "olivia", name: "Olivia Owen" }, "acme", "gus");
    doubles.token = copied;
    expect(await whoIsSignedIn()).toBeNull();
  });

  it("ends with nobody else's sign-out", async () => {
    doubles.token = { id: "ana", sessionVersion: await sessionVersionOf(testDb().db, "ana") };
    const ana = doubles.token;
    doubles.token = { id: "max", sessionVersion: await sessionVersionOf(testDb().db, "max") };
    vi.resetModules();
    await (await import("@/app/(app)/actions")).signOutAction();
    doubles.token = ana;
    expect(await whoIsSignedIn()).toBe("ana");
  });
});

describe("sessionTooOld", () => {
  it("ends a session its whole lifetime after sign-in, however much it was used", () => {
    const now = Date.now();
    expect(sessionTooOld({ since: now - 1000 }, now)).toBe(false);
    expect(sessionTooOld({ since: now - SESSION_LIFETIME_MS + 1000 }, now)).toBe(false);
    expect(sessionTooOld({ since: now - SESSION_LIFETIME_MS - 1000 }, now)).toBe(true);
    // A token without a start (issued before this rule) is too old.
    expect(sessionTooOld({}, now)).toBe(true);
  });
});
