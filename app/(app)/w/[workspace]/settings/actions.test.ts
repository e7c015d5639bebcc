/**
 * Every owner settings action called as what it is — a public POST endpoint —
 * against a real, freshly seeded libSQL file per test. Only two things are
 * doubles: who is signed in, and Next's revalidatePath. A member, an owner of
 * another workspace, a stale cookie and a signed-out caller are all refused,
 * with nothing written and nothing refreshed; an owner of the workspace gets
 * small typed answers, never rows.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { invites } from "@/db/schema";
import { addPerson } from "@/lib/admin/people";
import { appDemoDbForEachTest } from "@/lib/testing/app-db";
import type { Who } from "@/lib/testing/signed-in";

const { signInAs, revalidatePath } = await vi.hoisted(() => import("@/lib/testing/signed-in"));

const NOTHING_HERE = "There is no such thing in this workspace you can change.";
const SIGNED_OUT = "Your session has ended. Sign in again.";

type Caller = Who | "nobody";

type Answer = { status: string; message?: string; [key: string]: unknown };
type Action = (input: FormData | Record<string, unknown>) => Promise<Answer>;

const modules = {
  people: () => import("./actions"),
  channels: () => import("./channels/actions"),
  agents: () => import("./agents/actions"),
  agent: () => import("./agents/[agent]/actions"),
};

/** Each action with the form an honest owner's page would send for acme. */
const CASES: [string, () => Promise<Action>, Record<string, string>][] = [
  ["addPerson", async () => (await modules.people()).addPersonAction, { email: "new@acme.test", role: "member" }],
  ["renewInvite", async () => (await modules.people()).renewInviteAction, { inviteId: "inv_pia" }],
  ["cancelInvite", async () => (await modules.people()).cancelInviteAction, { inviteId: "inv_pia" }],
  ["changeRole", async () => (await modules.people()).changeRoleAction, { userId: "max", role: "owner" }],
  ["removePerson", async () => (await modules.people()).removePersonAction, { userId: "max" }],
  // "Also erase what agents keep just for them" (#16): only an owner, only their own workspace's member.
  ["removePersonErasing", async () => (await modules.people()).removePersonAction, { userId: "max", eraseFacts: "on" }],
  ["createChannel", async () => (await modules.channels()).createChannelAction, { name: "launch", kind: "private" }],
  ["renameChannel", async () => (await modules.channels()).renameChannelAction, { channelId: "leadership", name: "leads" }],
  ["setChannelKind", async () => (await modules.channels()).setChannelKindAction, { channelId: "leadership", kind: "public" }],
  ["addChannelMember", async () => (await modules.channels()).addChannelMemberAction, { channelId: "leadership", userId: "ana", confirmedFacts: "1" }],
  ["removeChannelMember", async () => (await modules.channels()).removeChannelMemberAction, { channelId: "leadership", userId: "max" }],
  ["createAgent", async () => (await modules.agents()).createAgentAction, { handle: "helper", name: "Helper" }],
  ["renameAgent", async () => (await modules.agent()).renameAgentAction, { agentId: "scout", name: "Scout II" }],
  ["deleteAgent", async () => (await modules.agent()).deleteAgentAction, { agentId: "scout", expectedFacts: "8" }],
  ["createKey", async () => (await modules.agent()).createKeyAction, { agentId: "scout", name: "CI" }],
  ["revokeKey", async () => (await modules.agent()).revokeKeyAction, { keyId: "key_demo_scout" }],
  [
    "setWritePolicies",
    async () => (await modules.agent()).setWritePoliciesAction,
    { agentId: "scout", workspaceFacts: "keep", channelFacts: "wait" },
  ],
];

// --- A fresh demo database per test, which the app opens through DATABASE_URL ---

const testDb = appDemoDbForEachTest(async (t) => {
  // An invitation waiting, with an id the cases can name, so renewInvite and cancelInvite have something to act on.
  const invited = await addPerson(t.db, { id: "olivia", name: "Olivia Owen" }, "acme", { email: "pia@acme.test" });
  if (invited.status !== "invited") throw new Error("expected an invite");
  await t.db.update(invites).set({ id: "inv_pia" }).where(eq(invites.email, "pia@acme.test"));
});

const db = () => testDb().db;

beforeEach(() => {
  signInAs(null);
  revalidatePath.mockClear();
});

// --- Helpers ---

const TABLES = ["users", "memberships", "channels", "channel_members", "agents", "agent_keys", "facts", "fact_events", "workspace_invites", "audit_events"];

/** Every row an owner action could touch, read on the test's own connection. */
async function dump() {
  const out: Record<string, unknown[]> = {};
  for (const table of TABLES) out[table] = await db().all(sql.raw(`SELECT * FROM ${table} ORDER BY rowid`));
  return out;
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

async function as(who: Caller, action: Action, input: FormData | Record<string, unknown>): Promise<Answer> {
  signInAs(who === "nobody" ? null : who);
  return action(input);
}

// --- Who may act ---

describe.each(CASES)("%s", (_name, load, fields) => {
  it("refuses everyone but an owner of the workspace with one answer, changing nothing", async () => {
    const action = await load();
    const before = await dump();
    const honest = form({ workspace: "acme", ...fields });
    for (const who of ["ana", "gina", "ghost"] as const) {
      expect(await as(who, action, honest), who).toEqual({ status: "failed", message: NOTHING_HERE });
    }
    expect(await as("nobody", action, honest)).toEqual({ status: "failed", message: SIGNED_OUT });
    // Gina names her own workspace but acme's people, channels, agents or keys: not there.
    if (["userId", "channelId", "agentId", "keyId"].some((key) => key in fields)) {
      expect(await as("gina", action, form({ workspace: "globex", ...fields }))).toEqual({ status: "failed", message: NOTHING_HERE });
    }
    expect(await dump()).toEqual(before);
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("lets acme's owner act, with a small answer and a refresh of the workspace's pages", async () => {
    const action = await load();
    const before = await dump();
    const answer = await as("olivia", action, form({ workspace: "acme", ...fields }));
    expect(["success", "invited", "key_created"]).toContain(answer.status);
    expect(Object.keys(answer).every((key) => ["status", "message", "href", "link", "key", "keyId"].includes(key))).toBe(true);
    expect(await dump()).not.toEqual(before);
    expect(revalidatePath).toHaveBeenCalledWith("/w/acme", "layout");
    const audit = await db().all<{ actor_id: string }>(sql`SELECT actor_id FROM audit_events ORDER BY id DESC LIMIT 1`);
    expect(audit[0].actor_id).toBe("olivia");
  });

  it("refuses malformed input before looking anyone up", async () => {
    const action = await load();
    const before = await dump();
    for (const input of [new FormData(), form(fields), { workspace: { $ne: null }, ...fields }]) {
      expect(await as("olivia", action, input)).toMatchObject({ status: "invalid_data" });
    }
    expect(await as("nobody", action, form(fields))).toMatchObject({ status: "invalid_data" });
    expect(await dump()).toEqual(before);
  });
});

describe("the owner's role is read from the database on every call", () => {
  it("refuses an owner who was made a member a moment ago", async () => {
    await db().run(sql`UPDATE memberships SET role = 'owner' WHERE user_id = 'max'`);
    await db().run(sql`UPDATE memberships SET role = 'member' WHERE user_id = 'olivia'`);
    const { createChannelAction } = await modules.channels();
    expect(await as("olivia", createChannelAction, form({ workspace: "acme", name: "x", kind: "public" }))).toEqual({
      status: "failed",
      message: NOTHING_HERE,
    });
  });
});

describe("answers owners can act on", () => {
  it("names the radio group of a refused write policy, keeps the saved ones, and says when nothing changed", async () => {
    const { setWritePoliciesAction } = await modules.agent();
    const before = await dump();
    const save = (fields: Record<string, string>) => as("olivia", setWritePoliciesAction, form({ workspace: "acme", agentId: "scout", ...fields }));
    expect(await save({ workspaceFacts: "maybe", channelFacts: "keep" })).toEqual({
      status: "invalid_data",
      field: "workspaceFacts",
      message: "Choose whether workspace facts wait for an owner or are kept at once.",
    });
    expect(await save({ workspaceFacts: "wait" })).toEqual({
      status: "invalid_data",
      field: "channelFacts",
      message: "Choose whether channel facts are kept at once or wait for someone in the channel.",
    });
    // Scout's defaults, sent again.
    expect(await save({ workspaceFacts: "wait", channelFacts: "keep" })).toEqual({ status: "success", message: "Nothing changed." });
    expect(await dump()).toEqual(before);
    expect(revalidatePath).not.toHaveBeenCalled();

    expect(await save({ workspaceFacts: "keep", channelFacts: "wait" })).toEqual({ status: "success", message: "Saved." });
    const [scout] = await db().all<{ workspace_facts: string; channel_facts: string }>(
      sql`SELECT workspace_facts, channel_facts FROM agents WHERE id = 'scout'`,
    );
    expect(scout).toEqual({ workspace_facts: "keep", channel_facts: "wait" });
  });

  it("adds no one to a private channel until the owner confirms the facts it shows them, and says how many", async () => {
    const { addChannelMemberAction } = await modules.channels();
    const before = await dump();
    const addGus = (extra: Record<string, string> = {}) =>
      as("olivia", addChannelMemberAction, form({ workspace: "acme", channelId: "leadership", userId: "gus", ...extra }));
    // A forged call that skips the question, and one that names another number: refused, with the real count.
    expect(await addGus()).toEqual({
      status: "failed",
      message: "Gus Gray would see 1 fact kept in #leadership. Nothing changed: confirm to add them.",
      confirmFacts: 1,
    });
    expect(await addGus({ confirmedFacts: "0" })).toEqual({
      status: "failed",
      message: "Gus Gray would see 1 fact kept in #leadership now, not 0 facts. Nothing changed: confirm to add them.",
      confirmFacts: 1,
    });
    expect(await addGus({ confirmedFacts: "many" })).toMatchObject({ status: "invalid_data" });
    expect(await dump()).toEqual(before);
    expect(revalidatePath).not.toHaveBeenCalled();

    expect(await addGus({ confirmedFacts: "1" })).toEqual({
      status: "success",
      message: "Gus Gray was added and can now see 1 fact kept in #leadership.",
    });
    const [audit] = await db().all<{ summary: string }>(sql`SELECT summary FROM audit_events ORDER BY id DESC LIMIT 1`);
    expect(audit.summary).toBe("Gus Gray to #leadership (can now see 1 fact)");
  });

  it("removes and erases what agents keep just for the person when asked, answering with a count and never the text", async () => {
    const { removePersonAction } = await modules.people();
    const answer = await as("olivia", removePersonAction, form({ workspace: "acme", userId: "max", eraseFacts: "on" }));
    expect(answer).toEqual({ status: "success", message: "Max Mills is no longer in Acme. 1 fact kept just for them was erased." });
    expect(await db().all(sql`SELECT id FROM facts WHERE scope = 'person' AND scope_ref = 'max'`)).toEqual([]);
    const audit = await db().all<{ action: string; summary: string }>(sql`SELECT action, summary FROM audit_events ORDER BY id DESC LIMIT 1`);
    expect(audit).toEqual([{ action: "person.erase", summary: "Max Mills: erased 1 fact (@scout 1) kept just for them" }]);
    // Without the box ticked, Gus's person fact stays his.
    await as("olivia", removePersonAction, form({ workspace: "acme", userId: "gus" }));
    expect(await db().all(sql`SELECT id FROM facts WHERE scope = 'person' AND scope_ref = 'gus'`)).toHaveLength(1);
  });

  it("refuses to demote or remove the last owner, and says what to do", async () => {
    const { changeRoleAction, removePersonAction } = await modules.people();
    const before = await dump();
    const lastOwner = { status: "failed", message: "Acme needs at least one owner. Make someone else an owner first." };
    expect(await as("olivia", changeRoleAction, form({ workspace: "acme", userId: "olivia", role: "member" }))).toEqual(lastOwner);
    expect(await as("olivia", removePersonAction, form({ workspace: "acme", userId: "olivia" }))).toEqual(lastOwner);
    expect(await dump()).toEqual(before);
  });

  it("sends an owner who stepped down away from the settings they can no longer open", async () => {
    const { changeRoleAction, removePersonAction } = await modules.people();
    await db().run(sql`UPDATE memberships SET role = 'owner' WHERE user_id = 'max'`);
    expect(await as("olivia", changeRoleAction, form({ workspace: "acme", userId: "olivia", role: "member" }))).toMatchObject({
      status: "success",
      href: "/w/acme",
    });
    signInAs("olivia");
    expect(await as("olivia", removePersonAction, form({ workspace: "acme", userId: "olivia" }))).toEqual({
      status: "failed",
      message: NOTHING_HERE,
    });
  });

  it("gives the invite link and the new key once, in the answer", async () => {
    const { addPersonAction } = await modules.people();
    const invited = await as("olivia", addPersonAction, form({ workspace: "acme", email: "Quinn@Acme.test", name: "Quinn" }));
    expect(invited).toEqual({ status: "invited", message: expect.stringContaining("7 days"), link: expect.stringMatching(/^\/invite\/[\w-]{43}$/) });
    // An address with an account gets the same answer as a new one, and its owner's name appears nowhere.
    const known = await as("olivia", addPersonAction, form({ workspace: "acme", email: "gina@globex.test" }));
    expect(known).toEqual({ status: "invited", message: expect.stringContaining("gina@globex.test"), link: expect.stringMatching(/^\/invite\/[\w-]{43}$/) });
    expect(String(known.message).replace("gina@globex.test", "quinn@acme.test")).toBe(invited.message);
    expect(JSON.stringify(known)).not.toContain("Gina");
    const again = await as("olivia", addPersonAction, form({ workspace: "acme", email: "max@acme.test" }));
    // On the email field, so the form marks it and keeps what was typed.
    expect(again).toEqual({ status: "failed", message: "max@acme.test is already in Acme.", field: "email" });

    const { createKeyAction } = await modules.agent();
    const key = await as("olivia", createKeyAction, form({ workspace: "acme", agentId: "scout", name: "CI" }));
    expect(key).toEqual({
      status: "key_created",
      message: expect.stringContaining("won't show it again"),
      key: expect.stringMatching(/^mnemo_/),
      keyId: expect.stringMatching(/^key_/),
    });
  });

  it("refuses a duplicate key name and a past or malformed expiry on their fields; a future expiry is kept and told", async () => {
    const { createKeyAction } = await modules.agent();
    const create = (fields: Record<string, string>) => as("olivia", createKeyAction, form({ workspace: "acme", agentId: "scout", ...fields }));
    expect(await create({ name: "demo KEY" })).toEqual({
      status: "invalid_data",
      field: "name",
      message: "This agent already has a key named “demo KEY”. Choose another name, or revoke that key first.",
    });
    expect(await create({ name: "CI", expiresOn: "2020-01-01" })).toMatchObject({ status: "invalid_data", field: "expiresOn" });
    expect(await create({ name: "CI", expiresOn: "soon" })).toMatchObject({ status: "invalid_data", field: "expiresOn" });
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const kept = await create({ name: "CI", expiresOn: day });
    expect(kept).toMatchObject({ status: "key_created", message: expect.stringContaining(`works until ${day} (UTC)`) });
    expect(await create({ name: "CI 2", expiresOn: "" })).toMatchObject({ status: "key_created" });
  });

  it("deletes an agent only with the number of facts the owner confirmed", async () => {
    const { deleteAgentAction } = await modules.agent();
    const stale = await as("olivia", deleteAgentAction, form({ workspace: "acme", agentId: "scout", expectedFacts: "7" }));
    expect(stale).toEqual({
      status: "failed",
      message: "It keeps 8 facts now, not 7 facts. Nothing was deleted; reload and confirm again.",
    });
    expect(await as("olivia", deleteAgentAction, form({ workspace: "acme", agentId: "scout", expectedFacts: "eight" }))).toMatchObject({
      status: "invalid_data",
    });
    expect(await as("olivia", deleteAgentAction, form({ workspace: "acme", agentId: "scout", expectedFacts: "8" }))).toEqual({
      status: "success",
      message: "Scout and its 8 facts were deleted.",
      href: "/w/acme/settings/agents",
    });
  });

  it("names a taken channel name or handle, and the field each refusal is about", async () => {
    const { createChannelAction } = await modules.channels();
    expect(await as("olivia", createChannelAction, form({ workspace: "acme", name: "#General", kind: "public" }))).toEqual({
      status: "failed",
      message: "There is already a channel named #general. Choose another name.",
      field: "name",
    });
    expect(await as("olivia", createChannelAction, form({ workspace: "acme", name: "two words", kind: "public" }))).toEqual({
      status: "invalid_data",
      message: "Use lower-case letters, digits, dashes and underscores, no spaces.",
      field: "name",
    });
    const { createAgentAction } = await modules.agents();
    expect(await as("olivia", createAgentAction, form({ workspace: "acme", handle: "@Scout", name: "Scout" }))).toEqual({
      status: "failed",
      message: "There is already an agent @scout. Choose another handle.",
      field: "handle",
    });
    expect(await as("olivia", createAgentAction, form({ workspace: "acme", handle: "no spaces", name: "Scout" }))).toMatchObject({
      status: "invalid_data",
      field: "handle",
    });
  });
});
