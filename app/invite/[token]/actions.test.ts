/**
 * Answering an invite through the public actions, on a fresh demo file per test.
 * Doubles: Auth.js's signIn (it needs a request), its error class, Next's
 * redirect, and who is signed in.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { users } from "@/db/schema";
import { addPerson } from "@/lib/admin/people";
import { verifyPassword } from "@/lib/auth/password";
import { appDemoDbForEachTest } from "@/lib/testing/app-db";
import { ACCOUNT_EXISTS, INVITE_UNUSABLE } from "./messages";

const { signInAs, authSignIn } = await vi.hoisted(() => import("@/lib/testing/signed-in"));
const redirect = vi.hoisted(() =>
  vi.fn((to: string) => {
    throw new Error(`NEXT_REDIRECT ${to}`);
  }),
);
vi.mock("next/navigation", () => ({ redirect }));
// Auth.js answers a successful sign-in by redirecting, which Next does by throwing.
authSignIn.mockImplementation(async () => {
  throw new Error("NEXT_REDIRECT /");
});

let token = "";
const testDb = appDemoDbForEachTest(async (t) => {
  const invited = await addPerson(t.db, { id: "olivia", name: "Olivia Owen" }, "acme", { email: "pia@acme.test" });
  if (invited.status !== "invited") throw new Error("expected an invite");
  token = invited.token;
});

beforeEach(() => {
  signInAs(null);
  authSignIn.mockClear();
  redirect.mockClear();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

async function piaHash() {
  const [pia] = await testDb().db.select().from(users).where(eq(users.email, "pia@acme.test"));
  return pia?.passwordHash ?? null;
}

describe("acceptInviteAction", () => {
  it("makes the account, signs the person in to the workspace, once", async () => {
    const { acceptInviteAction } = await import("./actions");
    const fields = { token, name: "Pia Park", password: "a long password", confirm: "a long password" };
    await expect(acceptInviteAction({ status: "idle" }, form(fields))).rejects.toThrow("NEXT_REDIRECT /");
    expect(authSignIn).toHaveBeenCalledWith("credentials", {
      email: "pia@acme.test",
      password: "a long password",
      redirectTo: "/w/acme",
    });
    expect(await verifyPassword((await piaHash()) ?? "", "a long password")).toBe(true);

    expect(await acceptInviteAction({ status: "idle" }, form({ ...fields, password: "x".repeat(9), confirm: "x".repeat(9) }))).toEqual({
      status: "failed",
      message: INVITE_UNUSABLE,
    });
    expect(await verifyPassword((await piaHash()) ?? "", "a long password")).toBe(true);
  });

  it("asks again for a short or mismatched password, and keeps the link working", async () => {
    const { acceptInviteAction } = await import("./actions");
    expect(await acceptInviteAction({ status: "idle" }, form({ token, name: "Pia", password: "short", confirm: "short" }))).toEqual({
      status: "invalid_data",
      message: "Use at least 8 characters.",
    });
    expect(await acceptInviteAction({ status: "idle" }, form({ token, name: "Pia", password: "a long password", confirm: "a long passwort" }))).toEqual({
      status: "invalid_data",
      message: "The two passwords don't match. Type the same password twice.",
    });
    expect(await piaHash()).toBeNull();
    expect(authSignIn).not.toHaveBeenCalled();
  });

  it("gives one answer for unknown and malformed links", async () => {
    const { acceptInviteAction } = await import("./actions");
    for (const bad of ["A".repeat(43), "not-a-token", ""]) {
      expect(await acceptInviteAction({ status: "idle" }, form({ token: bad, name: "Pia", password: "a long password", confirm: "a long password" }))).toEqual({
        status: "failed",
        message: INVITE_UNUSABLE,
      });
    }
    expect(await piaHash()).toBeNull();
  });

  it("sends the person to sign in when signing them in at once fails", async () => {
    const { AuthError } = await import("next-auth");
    authSignIn.mockImplementationOnce(async () => {
      throw new AuthError("rate limited");
    });
    const { acceptInviteAction } = await import("./actions");
    await expect(
      acceptInviteAction({ status: "idle" }, form({ token, name: "Pia", password: "a long password", confirm: "a long password" })),
    ).rejects.toThrow("NEXT_REDIRECT /signin");
    expect(await piaHash()).not.toBeNull();
  });

  it("never sets the password of an account that exists", async () => {
    const { acceptInviteAction } = await import("./actions");
    const invited = await addPerson(testDb().db, { id: "gina", name: "Gina Grant" }, "globex", { email: "max@acme.test" });
    if (invited.status !== "invited") throw new Error("expected an invite");
    const [before] = await testDb().db.select().from(users).where(eq(users.id, "max"));
    const fields = { token: invited.token, name: "Mallory", password: "gina's choice", confirm: "gina's choice" };
    expect(await acceptInviteAction({ status: "idle" }, form(fields))).toEqual({ status: "failed", message: ACCOUNT_EXISTS });
    const [after] = await testDb().db.select().from(users).where(eq(users.id, "max"));
    expect(after).toEqual(before);
    expect(authSignIn).not.toHaveBeenCalled();
  });
});

describe("answerInviteAction", () => {
  async function inviteMax() {
    const invited = await addPerson(testDb().db, { id: "gina", name: "Gina Grant" }, "globex", { email: "max@acme.test", role: "owner" });
    if (invited.status !== "invited") throw new Error("expected an invite");
    return invited.token;
  }

  it("joins the signed-in invited person with the invited role", async () => {
    const { answerInviteAction } = await import("./actions");
    const maxToken = await inviteMax();
    signInAs("max");
    await expect(answerInviteAction(form({ token: maxToken, answer: "join" }))).rejects.toThrow("NEXT_REDIRECT /w/globex");
    const rows = await testDb().db.all<{ role: string }>(sql`SELECT role FROM memberships WHERE user_id = 'max' AND workspace_id = 'globex'`);
    expect(rows).toEqual([{ role: "owner" }]);
  });

  it("refuses everyone else alike: signed out, another account, a wrong link", async () => {
    const { answerInviteAction } = await import("./actions");
    const maxToken = await inviteMax();
    expect(await answerInviteAction(form({ token: maxToken, answer: "join" }))).toEqual({ status: "failed", message: "Your session has ended. Sign in again." });
    signInAs("ana");
    expect(await answerInviteAction(form({ token: maxToken, answer: "join" }))).toEqual({ status: "failed", message: INVITE_UNUSABLE });
    expect(await answerInviteAction(form({ token: maxToken, answer: "decline" }))).toEqual({ status: "failed", message: INVITE_UNUSABLE });
    signInAs("max");
    expect(await answerInviteAction(form({ token: "A".repeat(43), answer: "join" }))).toEqual({ status: "failed", message: INVITE_UNUSABLE });
    const rows = await testDb().db.all(sql`SELECT * FROM memberships WHERE workspace_id = 'globex' AND user_id IN ('max', 'ana')`);
    expect(rows).toEqual([]);
  });

  it("declining joins nothing and uses the link up", async () => {
    const { answerInviteAction } = await import("./actions");
    const maxToken = await inviteMax();
    signInAs("max");
    await expect(answerInviteAction(form({ token: maxToken, answer: "decline" }))).rejects.toThrow("NEXT_REDIRECT /");
    expect(await answerInviteAction(form({ token: maxToken, answer: "join" }))).toEqual({ status: "failed", message: INVITE_UNUSABLE });
    expect(await testDb().db.all(sql`SELECT * FROM memberships WHERE workspace_id = 'globex' AND user_id = 'max'`)).toEqual([]);
  });
});
