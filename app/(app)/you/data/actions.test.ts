/**
 * The "Your data" page's actions and download, called as the public endpoints they
 * are, on a fresh demo file per test: each acts on the signed-in person only,
 * whatever the form says, and the signed out (or a deleted person's cookie) get nothing.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { DEMO_FACTS } from "@/db/seed";
import { facts, users, workspaces } from "@/db/schema";
import { appDemoDbForEachTest } from "@/lib/testing/app-db";

const { signInAs, authSignOut } = await vi.hoisted(() => import("@/lib/testing/signed-in"));

const testDb = appDemoDbForEachTest();

beforeEach(() => {
  signInAs(null);
  authSignOut.mockClear();
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

async function bodies(): Promise<string[]> {
  const rows = await testDb().db.select({ body: facts.body }).from(facts);
  return rows.map((row) => row.body).sort();
}

async function sessionVersions(): Promise<Record<string, number>> {
  const rows = await testDb().db.select({ id: users.id, v: users.sessionVersion }).from(users);
  return Object.fromEntries(rows.map((row) => [row.id, row.v]));
}

const SIGNED_OUT = { status: "failed", message: "Your session has ended. Sign in again." };

describe("eraseMyFactsAction", () => {
  it("answers the signed out with sign in again, and erases nothing", async () => {
    const { eraseMyFactsAction } = await import("./actions");
    const before = await bodies();
    expect(await eraseMyFactsAction(form({ workspace: "", confirm: "1" }))).toEqual(SIGNED_OUT);
    expect(await bodies()).toEqual(before);
  });

  it("dry run counts the signed-in person's facts per agent, whatever person the form names, and changes nothing", async () => {
    const { eraseMyFactsAction } = await import("./actions");
    signInAs("ana");
    const before = await bodies();
    const answer = await eraseMyFactsAction(form({ workspace: "acme", confirm: "0", userId: "gus", scopeRef: "gus" }));
    expect(answer).toEqual({
      status: "preview",
      workspace: "acme",
      total: 1,
      agents: [{ workspace: "Acme", agent: "Scout", count: 1 }],
    });
    expect(await bodies()).toEqual(before);
  });

  it("confirming erases the person's own facts only: Gus's and Max's stay", async () => {
    const { eraseMyFactsAction } = await import("./actions");
    signInAs("ana");
    const answer = await eraseMyFactsAction(form({ workspace: "", confirm: "1", userId: "gus" }));
    expect(answer).toEqual({
      status: "success",
      message: "Erased 1 fact kept just for you in every workspace. They are gone, history included.",
    });
    const left = await bodies();
    expect(left).not.toContain(DEMO_FACTS.anaPerson);
    expect(left).toContain(DEMO_FACTS.gusPerson);
    expect(left).toContain(DEMO_FACTS.maxPerson);
  });

  it("refuses a workspace the person is not in, erasing nothing there", async () => {
    const { eraseMyFactsAction } = await import("./actions");
    signInAs("ana");
    const before = await bodies();
    expect(await eraseMyFactsAction(form({ workspace: "globex", confirm: "1" }))).toEqual({
      status: "invalid_data",
      message: "Choose a workspace from the list.",
    });
    expect(await eraseMyFactsAction(form({ workspace: "acme", confirm: "yes" }))).toMatchObject({ status: "invalid_data" });
    expect(await bodies()).toEqual(before);
  });
});

describe("deleteAccountAction", () => {
  it("answers the signed out, and a still-valid cookie of a deleted person, with sign in again", async () => {
    const { deleteAccountAction } = await import("./actions");
    expect(await deleteAccountAction(form({ confirm: "1" }))).toEqual(SIGNED_OUT);
    signInAs("ghost");
    expect(await deleteAccountAction(form({ confirm: "1" }))).toEqual(SIGNED_OUT);
    expect(Object.keys(await sessionVersions()).sort()).toEqual(["ana", "gina", "gus", "max", "olivia"]);
    expect(authSignOut).not.toHaveBeenCalled();
  });

  it("dry run says what happens and changes nothing", async () => {
    const { deleteAccountAction } = await import("./actions");
    signInAs("gus");
    const before = await bodies();
    expect(await deleteAccountAction(form({ confirm: "0" }))).toMatchObject({
      status: "preview",
      personFacts: 1,
      soloWorkspaces: [],
      lastOwnerOf: [],
    });
    expect(await bodies()).toEqual(before);
    expect((await sessionVersions()).gus).toBe(0);
  });

  it("confirming deletes the signed-in person only, whoever the form names, and signs the browser out", async () => {
    const { deleteAccountAction } = await import("./actions");
    signInAs("gus");
    await deleteAccountAction(form({ confirm: "1", userId: "ana" }));
    expect(authSignOut).toHaveBeenCalledWith({ redirectTo: "/signin" });
    expect(Object.keys(await sessionVersions()).sort()).toEqual(["ana", "gina", "max", "olivia"]);
    const left = await bodies();
    expect(left).not.toContain(DEMO_FACTS.gusPerson);
    expect(left).toContain(DEMO_FACTS.anaPerson);
  });

  it("refuses the last owner of a workspace with others in it, with the way forward, and changes nothing", async () => {
    const { deleteAccountAction } = await import("./actions");
    signInAs("olivia");
    const before = await bodies();
    expect(await deleteAccountAction(form({ confirm: "1" }))).toMatchObject({
      status: "failed",
      message: "You are the last owner of Acme, where others remain. Make someone else an owner there first.",
      lastOwnerOf: [{ id: "acme", name: "Acme" }],
    });
    expect(await bodies()).toEqual(before);
    expect((await sessionVersions()).olivia).toBe(0);
    expect(authSignOut).not.toHaveBeenCalled();
  });

  it("deletes a workspace the person is alone in only once its name is typed back", async () => {
    const { deleteAccountAction } = await import("./actions");
    signInAs("gina");
    expect(await deleteAccountAction(form({ confirm: "1", "name:globex": "Globe" }))).toMatchObject({
      status: "failed",
      message: "Type the name of Globex to delete it with your account.",
      wrongNames: ["globex"],
      soloWorkspaces: [{ id: "globex", name: "Globex" }],
    });
    expect(await testDb().db.select().from(workspaces).where(eq(workspaces.id, "globex"))).toHaveLength(1);
    await deleteAccountAction(form({ confirm: "1", "name:globex": "Globex" }));
    expect(await testDb().db.select().from(workspaces).where(eq(workspaces.id, "globex"))).toHaveLength(0);
    expect(Object.keys(await sessionVersions())).not.toContain("gina");
  });
});

describe("signOutEverywhereAction", () => {
  it("ends every session of the signed-in person only, then signs this browser out", async () => {
    const { signOutEverywhereAction } = await import("./actions");
    signInAs("ana");
    await signOutEverywhereAction();
    expect(await sessionVersions()).toEqual({ ana: 1, gina: 0, gus: 0, max: 0, olivia: 0 });
    expect(authSignOut).toHaveBeenCalledWith({ redirectTo: "/signin" });
  });

  it("for the signed out, ends nobody's session", async () => {
    const { signOutEverywhereAction } = await import("./actions");
    await signOutEverywhereAction();
    expect(await sessionVersions()).toEqual({ ana: 0, gina: 0, gus: 0, max: 0, olivia: 0 });
  });
});

describe("GET /you/data/download", () => {
  const request = () => new Request("http://mnemo.test/you/data/download");

  it("sends the signed out to sign-in", async () => {
    const { GET } = await import("./download/route");
    const response = await GET(request());
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("http://mnemo.test/signin?callbackUrl=%2Fyou%2Fdata");
  });

  it("is the signed-in person's own file, as an attachment with a dated name", async () => {
    const { GET } = await import("./download/route");
    signInAs("ana");
    const response = await GET(request());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const file = await response.json();
    expect(file.person).toEqual({ id: "ana", name: "Ana Alves", email: "ana@acme.test" });
    expect(file.kept.map((fact: { body: string }) => fact.body)).toEqual([DEMO_FACTS.anaPerson]);
    const text = JSON.stringify(file);
    for (const other of [DEMO_FACTS.gusPerson, DEMO_FACTS.maxPerson, DEMO_FACTS.budget, DEMO_FACTS.globex]) {
      expect(text).not.toContain(other);
    }
  });
});
