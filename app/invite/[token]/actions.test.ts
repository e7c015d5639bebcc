/**
 * Accepting an invite through the public action, on a fresh demo file per test.
 * Doubles: Auth.js's signIn (it needs a request), its error class, and Next's redirect.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { addPerson } from "@/lib/admin/people";
import { verifyPassword } from "@/lib/auth/password";
import { appDemoDbForEachTest } from "@/lib/testing/app-db";
import { INVITE_UNUSABLE } from "./messages";

const doubles = vi.hoisted(() => ({
  // Typed with its arguments so the test can check what it was called with.
  signIn: vi.fn<(...args: unknown[]) => Promise<never>>(async () => {
    throw new Error("NEXT_REDIRECT /");
  }),
  redirect: vi.fn((to: string) => {
    throw new Error(`NEXT_REDIRECT ${to}`);
  }),
}));

vi.mock("@/lib/auth", () => ({ signIn: doubles.signIn }));
// next-auth's entry imports "next/server", which only resolves inside Next's bundler; the action needs its error class.
vi.mock("next-auth", () => ({ AuthError: class AuthError extends Error {} }));
vi.mock("next/navigation", () => ({ redirect: doubles.redirect }));

let token = "";
const testDb = appDemoDbForEachTest(async (t) => {
  const invited = await addPerson(t.db, { id: "olivia", name: "Olivia Owen" }, "acme", { email: "pia@acme.test" });
  if (invited.status !== "invited") throw new Error("expected an invite");
  token = invited.token;
});

beforeEach(() => {
  doubles.signIn.mockClear();
  doubles.redirect.mockClear();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

async function piaHash() {
  const [pia] = await testDb().db.select().from(users).where(eq(users.email, "pia@acme.test"));
  return pia.passwordHash;
}

describe("acceptInviteAction", () => {
  it("sets the password and signs the person in, once", async () => {
    const { acceptInviteAction } = await import("./actions");
    const fields = { token, password: "a long password", confirm: "a long password" };
    await expect(acceptInviteAction({ status: "idle" }, form(fields))).rejects.toThrow("NEXT_REDIRECT /");
    expect(doubles.signIn).toHaveBeenCalledWith("credentials", {
      email: "pia@acme.test",
      password: "a long password",
      redirectTo: "/",
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
    expect(await acceptInviteAction({ status: "idle" }, form({ token, password: "short", confirm: "short" }))).toEqual({
      status: "invalid_data",
      message: "Use at least 8 characters.",
    });
    expect(await acceptInviteAction({ status: "idle" }, form({ token, password: "a long password", confirm: "a long passwort" }))).toEqual({
      status: "invalid_data",
      message: "The two passwords don't match. Type the same password twice.",
    });
    expect(await piaHash()).toBeNull();
    expect(doubles.signIn).not.toHaveBeenCalled();
  });

  it("gives one answer for unknown and malformed links", async () => {
    const { acceptInviteAction } = await import("./actions");
    for (const bad of ["A".repeat(43), "not-a-token", ""]) {
      expect(await acceptInviteAction({ status: "idle" }, form({ token: bad, password: "a long password", confirm: "a long password" }))).toEqual({
        status: "failed",
        message: INVITE_UNUSABLE,
      });
    }
    expect(await piaHash()).toBeNull();
  });

  it("sends the person to sign in when signing them in at once fails", async () => {
    const { AuthError } = await import("next-auth");
    doubles.signIn.mockImplementationOnce(async () => {
      throw new AuthError("rate limited");
    });
    const { acceptInviteAction } = await import("./actions");
    await expect(
      acceptInviteAction({ status: "idle" }, form({ token, password: "a long password", confirm: "a long password" })),
    ).rejects.toThrow("NEXT_REDIRECT /signin");
    expect(await piaHash()).not.toBeNull();
  });
});
