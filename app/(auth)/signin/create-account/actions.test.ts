/**
 * The sign-up action called as a public POST endpoint, against a real temporary
 * database, with MNEMO_DEMO and MNEMO_SIGNUP set per test. Only Auth.js's signIn
 * is a double (it needs a request); it records who would be signed in, and where to.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, signInFailures, users, workspaces } from "@/db/schema";
import { seedDemo } from "@/db/seed";
import { verifyPassword } from "@/lib/auth/password";
import { SIGN_UPS_PER_ADDRESS } from "@/lib/auth/throttle";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";

const { authSignIn } = await vi.hoisted(() => import("@/lib/testing/signed-in"));

let t: TempDb;
let appDb: Db;
let createAccountAction: (typeof import("./actions"))["createAccountAction"];
const saved = { url: process.env.DATABASE_URL, demo: process.env.MNEMO_DEMO, signup: process.env.MNEMO_SIGNUP };

beforeAll(async () => {
  t = await createTempDb();
  process.env.DATABASE_URL = t.url;
  ({ createAccountAction } = await import("./actions"));
  appDb = (await import("@/db")).getDb();
});
afterAll(() => {
  appDb?.$client.close();
  t?.close();
  process.env.DATABASE_URL = saved.url;
  process.env.MNEMO_DEMO = saved.demo;
  process.env.MNEMO_SIGNUP = saved.signup;
});
beforeEach(async () => {
  // An empty database: workspaces and people (their memberships and audit rows go with them).
  await t.db.transaction(async (tx) => {
    await tx.delete(workspaces);
    await tx.delete(users);
  });
  process.env.MNEMO_DEMO = "0";
  process.env.MNEMO_SIGNUP = "closed";
  authSignIn.mockReset();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

const FIRST = { kind: "first", name: "Peter Gibbons", email: "Peter@Initech.test", password: "tps-reports-2", workspaceName: "Initech" };
const ACCOUNT = { kind: "account", name: "Milton", email: "milton@initech.test", password: "my-stapler-1" };
const CLOSED = "Sign-up is closed here. Ask a workspace owner to add you, then sign in.";

async function counts() {
  return { users: (await t.db.select().from(users)).length, workspaces: (await t.db.select().from(workspaces)).length };
}

describe("createAccountAction", () => {
  it("creates the first account (argon2id) and its workspace, then signs them in to it", async () => {
    expect(await createAccountAction({ status: "idle" }, form(FIRST))).toEqual({ status: "idle" });
    const [person] = await t.db.select().from(users);
    expect(person).toMatchObject({ name: "Peter Gibbons", email: "peter@initech.test" });
    expect(person.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(person.passwordHash!, "tps-reports-2")).toBe(true);
    const [membership] = await t.db.select().from(memberships).where(eq(memberships.userId, person.id));
    // Random after the name, like every new workspace: an id tells nothing about the others.
    expect(membership).toMatchObject({ workspaceId: expect.stringMatching(/^initech-[0-9a-z]{6}$/), role: "owner" });
    expect(authSignIn).toHaveBeenCalledWith("credentials", {
      email: "peter@initech.test",
      password: "tps-reports-2",
      redirectTo: `/w/${membership.workspaceId}`,
    });
  });

  it("refuses a forged sign-up once closed, changing nothing and signing no one in", async () => {
    await createAccountAction({ status: "idle" }, form(FIRST));
    authSignIn.mockReset();
    const before = await counts();
    for (const forged of [{ ...FIRST, email: "bill@initech.test" }, ACCOUNT]) {
      expect(await createAccountAction({ status: "idle" }, form(forged))).toEqual({
        status: "failed",
        message: CLOSED,
        fields: { name: forged.name, email: forged.email, workspaceName: "workspaceName" in forged ? forged.workspaceName : "" },
      });
    }
    expect(await counts()).toEqual(before);
    expect(authSignIn).not.toHaveBeenCalled();
  });

  it("refuses the first account beside the demo", async () => {
    process.env.MNEMO_DEMO = "1";
    expect(await createAccountAction({ status: "idle" }, form(FIRST))).toMatchObject({ status: "failed", message: CLOSED });
    expect(await counts()).toEqual({ users: 0, workspaces: 0 });
  });

  it("with MNEMO_SIGNUP=open, creates an account without a workspace and signs them in at home", async () => {
    await seedDemo(t.db);
    process.env.MNEMO_SIGNUP = "open";
    const before = await counts();
    expect(await createAccountAction({ status: "idle" }, form(ACCOUNT))).toEqual({ status: "idle" });
    expect(await counts()).toEqual({ users: before.users + 1, workspaces: before.workspaces });
    expect(authSignIn).toHaveBeenCalledWith("credentials", expect.objectContaining({ email: "milton@initech.test", redirectTo: "/" }));

    expect(await createAccountAction({ status: "idle" }, form({ ...ACCOUNT, email: "ana@acme.test" }))).toMatchObject({
      status: "failed",
      message: "There is already an account with this email. Sign in instead.",
    });
  });

  it("refuses an address that tried too many accounts lately, before hashing, and says how long to wait", async () => {
    // Outside a request the address is unknown: all such attempts share one count.
    const at = new Date().toISOString();
    await t.db.transaction(async (tx) => {
      await tx.delete(signInFailures);
      await tx.insert(signInFailures).values(Array.from({ length: SIGN_UPS_PER_ADDRESS.free }, () => ({ key: "signup:unknown", at })));
    });
    expect(await createAccountAction({ status: "idle" }, form(FIRST))).toMatchObject({
      status: "failed",
      message: "Too many attempts. Try again in 1 second.",
    });
    expect(await counts()).toEqual({ users: 0, workspaces: 0 });
    await t.db.transaction((tx) => tx.delete(signInFailures));
  });

  it.each([
    [{ ...FIRST, password: "short" }, "Use at least 8 characters."],
    [{ ...FIRST, email: "peter" }, "Enter an email address such as name@example.com."],
    [{ ...FIRST, workspaceName: " " }, "Name the workspace."],
    [{ ...FIRST, kind: "admin" }, "Reload the page and try again."],
  ])("answers bad input with what to fix, and never echoes the password: %j", async (input, message) => {
    const answer = await createAccountAction({ status: "idle" }, form(input));
    expect(answer).toMatchObject({ status: "failed", message });
    expect(JSON.stringify(answer)).not.toContain(input.password);
    expect(await counts()).toEqual({ users: 0, workspaces: 0 });
  });
});
