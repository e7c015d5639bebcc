/**
 * Owners managing people, on real database files seeded with the demo (olivia is
 * acme's only owner; max, ana and gus are members; gina owns globex).
 */
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { channelMembers, facts, invites, memberships, users } from "@/db/schema";
import { sessionVersionOf } from "@/lib/auth/session-version";
import { PlaceError } from "@/lib/memory/place";
import { freshDemoForEachTest, recalledFor, seenBy } from "@/lib/testing/demo-db";
import { listAudit } from "./audit";
import { answerInvite, hashInviteToken, openInvite } from "./invites";
import { addPerson, changeRole, listPeople, removePerson } from "./people";

const db = freshDemoForEachTest();
const OLIVIA = { id: "olivia", name: "Olivia Owen" };
const BUDGET = "The Q3 budget freeze lifts in October."; // #leadership (private: olivia, max)
const MAX_ON_CALL = "Max is on call the first week of each month."; // max's person fact

async function roleOf(userId: string, workspaceId = "acme") {
  const [row] = await db()
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
  return row?.role ?? null;
}

async function auditActions(workspaceId = "acme") {
  return (await listAudit(db(), workspaceId)).map((event) => [event.action, event.summary]).reverse();
}

describe("listPeople", () => {
  it("lists the workspace's people, owners first, and no one else's", async () => {
    const people = await listPeople(db(), "acme");
    expect(people.map((p) => [p.id, p.role])).toEqual([
      ["olivia", "owner"],
      ["ana", "member"],
      ["gus", "member"],
      ["max", "member"],
    ]);
    expect(people[0]).toMatchObject({ name: "Olivia Owen", email: "olivia@acme.test" });
    expect((await listPeople(db(), "globex")).map((p) => p.id)).toEqual(["gina"]);
  });
});

describe("addPerson", () => {
  it("invites an existing account, who is not a member until they answer the link themselves", async () => {
    const result = await addPerson(db(), OLIVIA, "acme", { email: " Gina@Globex.test " });
    expect(result).toEqual({ status: "invited", email: "gina@globex.test", token: expect.stringMatching(/^[\w-]{43}$/) });
    expect(await roleOf("gina")).toBeNull();
    expect(await roleOf("gina", "globex")).toBe("owner");
    expect(await auditActions()).toEqual([["member.invite", "gina@globex.test as member"]]);
  });

  it("answers a known and an unknown address alike, naming no one", async () => {
    const known = await addPerson(db(), OLIVIA, "acme", { email: "gina@globex.test", role: "owner" });
    const unknown = await addPerson(db(), OLIVIA, "acme", { email: "pia@acme.test", role: "owner" });
    expect({ ...known, email: "", token: "" }).toEqual({ ...unknown, email: "", token: "" });
    expect(JSON.stringify(known)).not.toContain("Gina Grant");
  });

  it("refuses someone already in the workspace, and re-adding replaces the link", async () => {
    expect(await addPerson(db(), OLIVIA, "acme", { email: "max@acme.test" })).toEqual({ status: "already_member", email: "max@acme.test" });
    const first = await addPerson(db(), OLIVIA, "acme", { email: "pia@acme.test" });
    const second = await addPerson(db(), OLIVIA, "acme", { email: "pia@acme.test", role: "owner" });
    if (first.status !== "invited" || second.status !== "invited") throw new Error("expected invites");
    expect(await openInvite(db(), first.token, null)).toBeNull();
    expect(await openInvite(db(), second.token, null)).toMatchObject({ role: "owner" });
  });

  it("stores a 7-day invitation only as a hash, and makes no account", async () => {
    const before = Date.now();
    const result = await addPerson(db(), OLIVIA, "acme", { email: "pia@acme.test", name: "Pia Park", role: "owner" });
    if (result.status !== "invited") throw new Error("expected an invite");
    expect(await db().select().from(users).where(eq(users.email, "pia@acme.test"))).toEqual([]);
    const stored = await db().select().from(invites).where(eq(invites.email, "pia@acme.test"));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ workspaceId: "acme", name: "Pia Park", role: "owner", tokenHash: hashInviteToken(result.token) });
    expect(JSON.stringify(stored)).not.toContain(result.token);
    const days = (new Date(stored[0].expiresAt).getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect(await auditActions()).toEqual([["member.invite", "pia@acme.test as owner"]]);
  });
});

describe("changeRole", () => {
  it("never demotes the last owner, and lets one of two owners go", async () => {
    expect(await changeRole(db(), OLIVIA, "acme", "olivia", "member")).toEqual({
      status: "last_owner",
      name: "Olivia Owen",
    });
    expect(await roleOf("olivia")).toBe("owner");

    expect(await changeRole(db(), OLIVIA, "acme", "max", "owner")).toEqual({ status: "changed", name: "Max Mills" });
    expect(await changeRole(db(), OLIVIA, "acme", "olivia", "member")).toEqual({ status: "changed", name: "Olivia Owen" });
    expect(await roleOf("olivia")).toBe("member");
    // Max is now the only owner.
    expect(await changeRole(db(), OLIVIA, "acme", "max", "member")).toMatchObject({ status: "last_owner" });
    expect(await roleOf("max")).toBe("owner");
    expect(await auditActions()).toEqual([
      ["member.role", "Max Mills: member → owner"],
      ["member.role", "Olivia Owen: owner → member"],
    ]);
  });

  it("keeps an owner when two owners demote each other at the same moment", async () => {
    await changeRole(db(), OLIVIA, "acme", "max", "owner");
    const results = await Promise.all([
      changeRole(db(), OLIVIA, "acme", "max", "member"),
      changeRole(db(), { id: "max", name: "Max Mills" }, "acme", "olivia", "member"),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["changed", "last_owner"]);
    const owners = await db().select().from(memberships).where(and(eq(memberships.workspaceId, "acme"), eq(memberships.role, "owner")));
    expect(owners).toHaveLength(1);
  });

  it("answers unchanged for the same role and not_found outside the workspace", async () => {
    expect(await changeRole(db(), OLIVIA, "acme", "ana", "member")).toEqual({ status: "unchanged", name: "Ana Alves" });
    expect(await changeRole(db(), OLIVIA, "acme", "gina", "member")).toEqual({ status: "not_found" });
    expect(await changeRole(db(), OLIVIA, "acme", "nobody", "owner")).toEqual({ status: "not_found" });
    expect(await roleOf("gina", "globex")).toBe("owner");
    expect(await auditActions()).toEqual([]);
  });
});

describe("removePerson", () => {
  it("never removes the last owner, and lets one of two owners go", async () => {
    expect(await removePerson(db(), OLIVIA, "acme", "olivia")).toEqual({ status: "last_owner", name: "Olivia Owen" });
    expect(await roleOf("olivia")).toBe("owner");
    await changeRole(db(), OLIVIA, "acme", "ana", "owner");
    expect(await removePerson(db(), OLIVIA, "acme", "olivia")).toEqual({ status: "removed", name: "Olivia Owen", erased: 0 });
    expect(await roleOf("olivia")).toBeNull();
    expect(await removePerson(db(), OLIVIA, "acme", "ana")).toMatchObject({ status: "last_owner" });
  });

  it("ends max's channel access at once, keeps his person fact from everyone, and gives it back when he returns", async () => {
    expect(await recalledFor(db(), "leadership", "max")).toContain(BUDGET);
    expect(await seenBy(db(), "max")).toEqual(expect.arrayContaining([BUDGET, MAX_ON_CALL]));

    expect(await removePerson(db(), OLIVIA, "acme", "max")).toEqual({ status: "removed", name: "Max Mills", erased: 0 });
    expect(await db().select().from(channelMembers).where(eq(channelMembers.userId, "max"))).toEqual([]);
    await expect(recalledFor(db(), "leadership", "max")).rejects.toBeInstanceOf(PlaceError);
    await expect(recalledFor(db(), "general", "max")).rejects.toMatchObject({ code: "asker_not_member" });
    expect(await seenBy(db(), "max")).toEqual([]);
    // His person fact stays, and stays his: the owner does not see it.
    expect(await db().select().from(facts).where(eq(facts.body, MAX_ON_CALL))).toHaveLength(1);
    expect(await seenBy(db(), "olivia")).not.toContain(MAX_ON_CALL);

    const back = await addPerson(db(), OLIVIA, "acme", { email: "max@acme.test" });
    if (back.status !== "invited") throw new Error("expected an invite");
    expect(await answerInvite(db(), back.token, { id: "max", name: "Max Mills", email: "max@acme.test" }, "join")).toMatchObject({ status: "joined" });
    const seen = await seenBy(db(), "max");
    expect(seen).toContain(MAX_ON_CALL);
    // His channels did not come back with him.
    expect(seen).not.toContain(BUDGET);
    await expect(recalledFor(db(), "leadership", "max")).rejects.toMatchObject({ code: "cannot_read" });
    expect(await seenBy(db(), "olivia")).not.toContain(MAX_ON_CALL);
    expect(await auditActions()).toEqual([
      ["member.remove", "Max Mills <max@acme.test>"],
      ["member.invite", "max@acme.test as member"],
      ["invite.accept", "Max Mills <max@acme.test> as member"],
    ]);
  });

  it("with eraseTheirFacts, erases what agents keep just for them at once, and the audit list says how many, never what", async () => {
    expect(await removePerson(db(), OLIVIA, "acme", "max", { eraseTheirFacts: true })).toEqual({
      status: "removed",
      name: "Max Mills",
      erased: 1,
    });
    expect(await db().select().from(facts).where(eq(facts.body, MAX_ON_CALL))).toEqual([]);
    // Only his: Ana's and Gus's person facts stay.
    expect(await db().select().from(facts).where(eq(facts.scope, "person"))).toHaveLength(2);
    expect(await auditActions()).toEqual([
      ["member.remove", "Max Mills <max@acme.test>"],
      ["person.erase", "Max Mills: erased 1 fact (@scout 1) kept just for them"],
    ]);
  });

  it("ends every session of a person removed from their last workspace, and only then", async () => {
    await addPerson(db(), OLIVIA, "acme", { email: "gina@globex.test" }).then(async (invited) => {
      if (invited.status !== "invited") throw new Error("expected an invite");
      await answerInvite(db(), invited.token, { id: "gina", name: "Gina Grant", email: "gina@globex.test" }, "join");
    });
    const before = await sessionVersionOf(db(), "gina");
    await removePerson(db(), OLIVIA, "acme", "gina");
    expect(await sessionVersionOf(db(), "gina")).toBe(before); // still in Globex
    const maxBefore = await sessionVersionOf(db(), "max");
    await removePerson(db(), OLIVIA, "acme", "max");
    expect(await sessionVersionOf(db(), "max")).toBe(maxBefore + 1);
  });

  it("answers not_found for people outside the workspace, and changes nothing", async () => {
    expect(await removePerson(db(), OLIVIA, "acme", "gina")).toEqual({ status: "not_found" });
    expect(await roleOf("gina", "globex")).toBe("owner");
    expect(await auditActions()).toEqual([]);
  });
});
