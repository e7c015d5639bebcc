/**
 * Invitations belong to (workspace, email) and grant that workspace only; a link
 * never sets the password of an account that exists. Each takeover the first
 * version allowed is replayed here against the data layer.
 */
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { invites, memberships, users } from "@/db/schema";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { freshDemoForEachTest } from "@/lib/testing/demo-db";
import { listAudit } from "./audit";
import {
  acceptInviteAsNewAccount,
  answerInvite,
  cancelInvite,
  INVITE_DAYS,
  listInvites,
  openInvite,
  renewInvite,
} from "./invites";
import { addPerson, removePerson } from "./people";

const db = freshDemoForEachTest();
const OLIVIA = { id: "olivia", name: "Olivia Owen" };
const GINA = { id: "gina", name: "Gina Grant" };
const DAY = 86_400_000;

async function invite(actor: { id: string; name: string }, workspace: string, email: string, role: "owner" | "member" = "member") {
  const result = await addPerson(db(), actor, workspace, { email, role });
  if (result.status !== "invited") throw new Error(`expected an invite, got ${result.status}`);
  return result.token;
}

async function workspacesOf(email: string): Promise<string[]> {
  const rows = await db()
    .select({ workspace: memberships.workspaceId, role: memberships.role })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(users.email, email));
  return rows.map((row) => `${row.workspace}:${row.role}`).sort();
}

describe("an invitation", () => {
  it("makes no account and no membership until it is accepted", async () => {
    const token = await invite(OLIVIA, "acme", "pia@acme.test", "owner");
    expect(await db().select().from(users).where(eq(users.email, "pia@acme.test"))).toEqual([]);
    expect(await listInvites(db(), "acme")).toEqual([
      expect.objectContaining({ email: "pia@acme.test", role: "owner", expired: false }),
    ]);
    expect(await openInvite(db(), token, null)).toEqual({
      workspaceName: "Acme",
      email: "pia@acme.test",
      name: null,
      role: "owner",
      next: "create_account",
    });
  });

  it("makes the account and this workspace's membership for someone new, once", async () => {
    const token = await invite(OLIVIA, "acme", "pia@acme.test", "owner");
    const accepted = await acceptInviteAsNewAccount(db(), token, { name: "Pia Park", passwordHash: await hashPassword("a long password") });
    expect(accepted).toEqual({ status: "joined", workspaceId: "acme", email: "pia@acme.test" });
    const [pia] = await db().select().from(users).where(eq(users.email, "pia@acme.test"));
    expect(pia.name).toBe("Pia Park");
    expect(await verifyPassword(pia.passwordHash ?? "", "a long password")).toBe(true);
    expect(await workspacesOf("pia@acme.test")).toEqual(["acme:owner"]);

    // Used up: the same link opens nothing and changes nothing.
    expect(await openInvite(db(), token, null)).toBeNull();
    expect(await acceptInviteAsNewAccount(db(), token, { name: "Someone", passwordHash: "x" })).toEqual({ status: "unusable" });
    const [after] = await db().select().from(users).where(eq(users.id, pia.id));
    expect(after.passwordHash).toBe(pia.passwordHash);
    expect((await listAudit(db(), "acme")).map((e) => [e.action, e.actorName, e.summary]).reverse()).toEqual([
      ["member.invite", "Olivia Owen", "pia@acme.test as owner"],
      ["invite.accept", "Pia Park", "Pia Park <pia@acme.test> as owner"],
    ]);
  });

  it("gives one answer for expired, unknown, cancelled and renewed-away links", async () => {
    const token = await invite(OLIVIA, "acme", "pia@acme.test");
    const later = new Date(Date.now() + (INVITE_DAYS + 1) * DAY);
    expect(await openInvite(db(), token, null, later)).toBeNull();
    expect(await acceptInviteAsNewAccount(db(), token, { name: "Pia", passwordHash: "x" }, later)).toEqual({ status: "unusable" });
    expect(await openInvite(db(), "A".repeat(43), null)).toBeNull();
    expect(await openInvite(db(), token, null, new Date(Date.now() + INVITE_DAYS * DAY - 60_000))).not.toBeNull();

    const [row] = await listInvites(db(), "acme");
    const renewed = await renewInvite(db(), OLIVIA, "acme", row.id);
    if (renewed.status !== "renewed") throw new Error("expected a new link");
    expect(await openInvite(db(), token, null)).toBeNull();
    expect(await openInvite(db(), renewed.token, null)).not.toBeNull();
    expect(await cancelInvite(db(), OLIVIA, "acme", row.id)).toEqual({ status: "cancelled", email: "pia@acme.test" });
    expect(await openInvite(db(), renewed.token, null)).toBeNull();
    // Another workspace's owner can neither renew nor cancel it.
    const again = await invite(OLIVIA, "acme", "pia@acme.test");
    const [mine] = await listInvites(db(), "acme");
    expect(await renewInvite(db(), GINA, "globex", mine.id)).toEqual({ status: "not_found" });
    expect(await cancelInvite(db(), GINA, "globex", mine.id)).toEqual({ status: "not_found" });
    expect(await openInvite(db(), again, null)).not.toBeNull();
  });
});

describe("the takeovers of the first version", () => {
  it("another workspace's link to the same email never grants the first workspace", async () => {
    // Olivia invites hire@ as an owner of Acme; Gina adds the same address to Globex and uses her own link.
    const acmeLink = await invite(OLIVIA, "acme", "hire@acme.test", "owner");
    const globexLink = await invite(GINA, "globex", "hire@acme.test");
    const gina = await acceptInviteAsNewAccount(db(), globexLink, { name: "Not Hire", passwordHash: await hashPassword("gina's password") });
    expect(gina.status).toBe("joined");
    expect(await workspacesOf("hire@acme.test")).toEqual(["globex:member"]);

    // Acme's link still waits for its holder, and it no longer offers a password: the account exists.
    expect((await openInvite(db(), acmeLink, null))?.next).toBe("sign_in");
    expect(await acceptInviteAsNewAccount(db(), acmeLink, { name: "Hire", passwordHash: "x" })).toEqual({ status: "account_exists" });
    const [hire] = await db().select().from(users).where(eq(users.email, "hire@acme.test"));
    expect(await verifyPassword(hire.passwordHash ?? "", "gina's password")).toBe(true);
    expect(await workspacesOf("hire@acme.test")).toEqual(["globex:member"]);
  });

  it("an account someone made and removed is not added to another workspace: it gets a link like anyone", async () => {
    // Gus starts a workspace, adds cfo@, sets its password through his link, removes it.
    const gusLink = await invite({ id: "gus", name: "Gus Gray" }, "globex", "cfo@acme.test");
    await acceptInviteAsNewAccount(db(), gusLink, { name: "CFO", passwordHash: await hashPassword("gus knows this") });
    const [cfo] = await db().select().from(users).where(eq(users.email, "cfo@acme.test"));
    expect((await removePerson(db(), GINA, "globex", cfo.id)).status).toBe("removed");

    // Olivia adds the address to Acme: the same kind of answer as for a new address, and nobody joins.
    const forCfo = await addPerson(db(), OLIVIA, "acme", { email: "cfo@acme.test", role: "owner" });
    const forNew = await addPerson(db(), OLIVIA, "acme", { email: "never-seen@acme.test", role: "owner" });
    expect(Object.keys(forCfo).sort()).toEqual(Object.keys(forNew).sort());
    expect(forCfo).toMatchObject({ status: "invited", email: "cfo@acme.test" });
    expect(JSON.stringify(forCfo)).not.toContain("CFO");
    expect(await workspacesOf("cfo@acme.test")).toEqual([]);
  });

  it("an existing account joins only when it answers the link itself, signed in as that email", async () => {
    const token = await invite(OLIVIA, "acme", "gina@globex.test", "owner");
    expect(await workspacesOf("gina@globex.test")).toEqual(["globex:owner"]);
    const gina = { id: "gina", name: "Gina Grant", email: "gina@globex.test" };
    const max = { id: "max", name: "Max Mills", email: "max@acme.test" };

    expect((await openInvite(db(), token, null))?.next).toBe("sign_in");
    expect((await openInvite(db(), token, max))?.next).toBe("other_account");
    expect((await openInvite(db(), token, gina))?.next).toBe("join");
    // Max holding Gina's link can't use it, for himself or for her.
    expect(await answerInvite(db(), token, max, "join")).toEqual({ status: "unusable" });
    expect(await workspacesOf("max@acme.test")).toEqual(["acme:member"]);

    expect(await answerInvite(db(), token, gina, "join")).toEqual({ status: "joined", workspaceId: "acme" });
    expect(await workspacesOf("gina@globex.test")).toEqual(["acme:owner", "globex:owner"]);
    expect(await answerInvite(db(), token, gina, "join")).toEqual({ status: "unusable" });
    expect((await listAudit(db(), "acme"))[0]).toMatchObject({ action: "invite.accept", actorName: "Gina Grant" });
  });

  it("declining withdraws the invitation and joins nothing", async () => {
    const token = await invite(OLIVIA, "acme", "gina@globex.test");
    const gina = { id: "gina", name: "Gina Grant", email: "gina@globex.test" };
    expect(await answerInvite(db(), token, gina, "decline")).toEqual({ status: "declined", workspaceId: "acme" });
    expect(await workspacesOf("gina@globex.test")).toEqual(["globex:owner"]);
    expect(await listInvites(db(), "acme")).toEqual([]);
    expect((await listAudit(db(), "acme"))[0]).toMatchObject({ action: "invite.decline", summary: "Gina Grant <gina@globex.test>" });
  });

  it("a first-version account that never signed in and is in no workspace can be given its first password; one in a workspace cannot", async () => {
    await db().insert(users).values([
      { id: "leftover", email: "leftover@acme.test", name: null },
      { id: "stuck", email: "stuck@acme.test", name: null },
    ]);
    await db().insert(memberships).values({ workspaceId: "globex", userId: "stuck", role: "owner" });
    const leftover = await invite(OLIVIA, "acme", "leftover@acme.test");
    const stuck = await invite(OLIVIA, "acme", "stuck@acme.test");
    expect(await acceptInviteAsNewAccount(db(), stuck, { name: "Stuck", passwordHash: "x" })).toEqual({ status: "account_exists" });
    expect(await workspacesOf("stuck@acme.test")).toEqual(["globex:owner"]);
    expect(await acceptInviteAsNewAccount(db(), leftover, { name: "Lefty", passwordHash: "h" })).toMatchObject({ status: "joined" });
    const [row] = await db().select().from(users).where(and(eq(users.id, "leftover"), eq(users.passwordHash, "h")));
    expect(row?.name).toBe("Lefty");
    expect(await db().select().from(invites).where(eq(invites.email, "leftover@acme.test"))).toEqual([]);
  });

  it("two concurrent uses of one link make one account", async () => {
    const token = await invite(OLIVIA, "acme", "pia@acme.test");
    const hash = await hashPassword("a long password");
    const answers = await Promise.all([1, 2, 3].map(() => acceptInviteAsNewAccount(db(), token, { name: "Pia", passwordHash: hash })));
    expect(answers.filter((a) => a.status === "joined")).toHaveLength(1);
    expect(await db().select().from(users).where(eq(users.email, "pia@acme.test"))).toHaveLength(1);
  });
});
