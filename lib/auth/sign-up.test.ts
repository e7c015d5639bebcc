/**
 * First run without the demo, and open or closed sign-up, on real database
 * files: who may create an account when, that the first account owns its new
 * workspace, and that racing for the first account — in one process or two —
 * gives it to exactly one person.
 */
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/db/client";
import { auditEvents, memberships, users, workspaces } from "@/db/schema";
import { seedDemo } from "@/db/seed";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { signUp, signUpOffer, signUpSettings, type NewAccount, type SignUpSettings } from "./sign-up";

const NO_DEMO_CLOSED: SignUpSettings = { demo: false, signup: "closed" };
const NO_DEMO_OPEN: SignUpSettings = { demo: false, signup: "open" };
// Hashing is the action's job; these tests only need a stand-in value.
const HASH = "$argon2id$stand-in";

const first = (email: string, workspaceName = "Initech"): NewAccount => ({
  kind: "first",
  name: "Peter Gibbons",
  email,
  passwordHash: HASH,
  workspaceName,
});
const account = (email: string): NewAccount => ({ kind: "account", name: "Milton", email, passwordHash: HASH });

const t = tempDbForTests({ each: true });

async function everything() {
  return {
    users: await t.db.select().from(users),
    workspaces: await t.db.select().from(workspaces),
    memberships: await t.db.select().from(memberships),
    audit: await t.db.select().from(auditEvents),
  };
}

describe("signUpOffer", () => {
  it("offers the first account only on an empty database without the demo", async () => {
    expect(await signUpOffer(t.db, NO_DEMO_CLOSED)).toBe("first");
    expect(await signUpOffer(t.db, NO_DEMO_OPEN)).toBe("first");
    expect(await signUpOffer(t.db, { demo: true, signup: "closed" })).toBe("closed");
    await seedDemo(t.db);
    expect(await signUpOffer(t.db, NO_DEMO_CLOSED)).toBe("closed");
    expect(await signUpOffer(t.db, NO_DEMO_OPEN)).toBe("open");
  });

  it("reads MNEMO_DEMO and MNEMO_SIGNUP, closed by default", () => {
    expect(signUpSettings({})).toEqual({ demo: true, signup: "closed" });
    expect(signUpSettings({ MNEMO_DEMO: "0", MNEMO_SIGNUP: "open" })).toEqual({ demo: false, signup: "open" });
    expect(() => signUpSettings({ MNEMO_SIGNUP: "yes" })).toThrow(/^MNEMO_SIGNUP="yes" is not valid: closed \(/);
  });
});

describe("signUp", () => {
  it("makes the first account the owner of a new workspace, and then closes", async () => {
    const result = await signUp(t.db, NO_DEMO_CLOSED, first("peter@initech.test"));
    // The name, then random characters (lib/admin/workspaces.ts): an id tells nothing about other workspaces.
    expect(result).toMatchObject({ status: "created", workspaceId: expect.stringMatching(/^initech-[0-9a-z]{6}$/) });
    const id = (result as { workspaceId: string }).workspaceId;
    const after = await everything();
    expect(after.users).toMatchObject([{ name: "Peter Gibbons", email: "peter@initech.test", passwordHash: HASH }]);
    expect(after.workspaces).toMatchObject([{ id, name: "Initech" }]);
    expect(after.memberships).toMatchObject([{ workspaceId: id, userId: after.users[0].id, role: "owner" }]);
    expect(after.audit).toMatchObject([{ workspaceId: id, actorId: after.users[0].id, action: "workspace.create" }]);

    // A second "first account", and an account while sign-up is closed: refused, nothing written.
    expect(await signUp(t.db, NO_DEMO_CLOSED, first("bill@initech.test", "Other"))).toEqual({ status: "closed" });
    expect(await signUp(t.db, NO_DEMO_CLOSED, account("milton@initech.test"))).toEqual({ status: "closed" });
    expect(await everything()).toEqual(after);
  });

  it("never offers a first account beside the demo", async () => {
    expect(await signUp(t.db, { demo: true, signup: "open" }, first("peter@initech.test"))).toEqual({ status: "closed" });
    expect(await everything()).toMatchObject({ users: [], workspaces: [] });
  });

  it("lets anyone make an account (the person only) when sign-up is open, one per email", async () => {
    await seedDemo(t.db);
    const before = await everything();
    const result = await signUp(t.db, NO_DEMO_OPEN, account("milton@initech.test"));
    expect(result).toMatchObject({ status: "created", workspaceId: null });
    const after = await everything();
    expect(after.users).toHaveLength(before.users.length + 1);
    expect(after.workspaces).toEqual(before.workspaces);
    expect(after.memberships).toEqual(before.memberships);

    expect(await signUp(t.db, NO_DEMO_OPEN, account("ana@acme.test"))).toEqual({ status: "email_taken" });
    expect(await everything()).toEqual(after);
  });

  it("gives the first account to exactly one of many racing in one process", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => signUp(t.db, NO_DEMO_CLOSED, first(`racer${i}@initech.test`, `Team ${i}`))),
    );
    expect(results.filter((r) => r.status === "created")).toHaveLength(1);
    expect(results.filter((r) => r.status === "closed")).toHaveLength(4);
    const after = await everything();
    expect(after.users).toHaveLength(1);
    expect(after.workspaces).toHaveLength(1);
  });

  it("gives the first account to exactly one of two racing from separate connections", async () => {
    const other = await openDatabase(t.url);
    try {
      const results = await Promise.all([
        signUp(t.db, NO_DEMO_CLOSED, first("one@initech.test", "One")),
        signUp(other, NO_DEMO_CLOSED, first("two@initech.test", "Two")),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["closed", "created"]);
      expect((await everything()).workspaces).toHaveLength(1);
    } finally {
      other.$client.close();
    }
  });
});
