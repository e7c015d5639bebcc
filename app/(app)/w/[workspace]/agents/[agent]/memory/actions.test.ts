/**
 * The Memory page's server actions called as what they are — public POST
 * endpoints anyone can send anything to — against a real temporary libSQL file
 * seeded with the demo (db/seed.ts). Only two things are doubles: who is signed in,
 * and Next's revalidatePath (it needs a request). Every refusal must give the
 * same small answer for "missing" and "not yours", leave every fact and event as
 * it was, and refresh nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { channelMembers, factEvents, facts, memberships } from "@/db/schema";
import { DEMO_FACTS, seedDemo } from "@/db/seed";
import type { Who } from "@/lib/testing/signed-in";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";

const { signInAs, revalidatePath } = await vi.hoisted(() => import("@/lib/testing/signed-in"));

// --- The demo, as the tests name it ---

const SIGNED_OUT = "Your session has ended. Sign in again.";
const NOT_FOUND = "There is no such fact you can change.";
const NOT_SEEN = "There is no such fact you can see.";
const NOT_THERE = "You can't keep a fact there.";

type Caller = Who | "nobody";

/** A demo fact by its short name in db/seed.ts, which also says the scope each is kept in. */
type FactName = keyof typeof DEMO_FACTS;

type Where = { workspace: string; agent: string };
const ACME: Where = { workspace: "acme", agent: "scout" };
const GLOBEX: Where = { workspace: "globex", agent: "echo" };
// Tampered pairs: a workspace with another workspace's agent.
const GLOBEX_SCOUT: Where = { workspace: "globex", agent: "scout" };
const ACME_ECHO: Where = { workspace: "acme", agent: "echo" };
const pageOf = (where: Where) => `/w/${where.workspace}/agents/${where.agent}/memory`;

// --- The app, pointed at the temporary file ---

type Actions = typeof import("./actions");
type ActionName = "add" | "correct" | "pin" | "renew" | "forget" | "restore" | "purge" | "history";
type FactActionName = Exclude<ActionName, "add">;
type Input = FormData | Record<string, unknown>;
type Answer = { status: string; message?: string; current?: unknown; events?: unknown };

let t: TempDb;
let appDb: Db;
let actions: Actions;
let seeded: Awaited<ReturnType<typeof snapshot>> & {
  memberships: (typeof memberships.$inferSelect)[];
  channelMembers: (typeof channelMembers.$inferSelect)[];
};
const ids = {} as Record<FactName, string>;
const originalUrl = process.env.DATABASE_URL;

function run(action: ActionName, input: Input): Promise<Answer> {
  const byName = {
    add: actions.addFactAction,
    correct: actions.correctFactAction,
    pin: actions.pinFactAction,
    renew: actions.renewFactAction,
    forget: actions.forgetFactAction,
    restore: actions.restoreFactAction,
    purge: actions.purgeFactAction,
    history: actions.factHistoryAction,
  } satisfies Record<ActionName, (input: Input) => Promise<Answer>>;
  return byName[action](input);
}

beforeAll(async () => {
  t = await createTempDb();
  await seedDemo(t.db);
  // db/index.ts opens DATABASE_URL once per process, so it is set before the app is loaded.
  process.env.DATABASE_URL = t.url;
  actions = await import("./actions");
  appDb = (await import("@/db")).getDb();
  seeded = {
    ...(await snapshot()),
    memberships: await t.db.select().from(memberships),
    channelMembers: await t.db.select().from(channelMembers),
  };
  for (const [name, body] of Object.entries(DEMO_FACTS)) {
    const fact = seeded.facts.find((f) => f.body === body);
    if (!fact) throw new Error(`the demo has no fact "${body}"`);
    ids[name as FactName] = fact.id;
  }
});

afterAll(() => {
  console.table(matrixTable());
  appDb?.$client.close();
  t?.close();
  process.env.DATABASE_URL = originalUrl;
});

// Every test starts from the seeded demo: facts, history, and who belongs where.
beforeEach(async () => {
  await t.db.transaction(async (tx) => {
    await tx.delete(factEvents);
    await tx.delete(facts);
    await tx.delete(channelMembers);
    await tx.delete(memberships);
    await tx.insert(memberships).values(seeded.memberships);
    await tx.insert(channelMembers).values(seeded.channelMembers);
    await tx.insert(facts).values(seeded.facts);
    await tx.insert(factEvents).values(seeded.events);
  });
  signInAs(null);
  revalidatePath.mockClear();
});

// --- Helpers ---

/** Everything an action could touch: every fact row as stored, and every event. Read on the test's own connection. */
async function snapshot() {
  return {
    facts: await t.db.select().from(facts).orderBy(facts.seq),
    events: await t.db.select().from(factEvents).orderBy(factEvents.id),
  };
}

async function factRow(id: string) {
  const [row] = await t.db.select().from(facts).where(eq(facts.id, id));
  return row;
}

async function eventsOf(id: string) {
  return t.db.select().from(factEvents).where(eq(factEvents.factId, id)).orderBy(factEvents.id);
}

/** Moves facts to "Recently forgotten", `daysAgo` days ago, as the setup of restore and purge. */
async function forgetDirectly(names: FactName[], daysAgo = 0) {
  const at = new Date(Date.now() - daysAgo * 24 * 60 * 60 * 1000).toISOString();
  for (const name of names) await t.db.update(facts).set({ forgottenAt: at }).where(eq(facts.id, ids[name]));
}

/** The input an honest page would send for this action on this fact. */
async function inputFor(action: FactActionName, factId: string, where: Where = ACME): Promise<Record<string, unknown>> {
  const base = { ...where, factId };
  const row = await factRow(factId);
  if (action === "correct") return { ...base, version: row?.version ?? 1, text: "A better sentence than before." };
  if (action === "pin") return { ...base, pinned: !(row?.pinned ?? false) };
  if (action === "renew") return { ...base, valid_until: RENEWED_UNTIL };
  return base;
}

/** A day a renew sets: tomorrow, well inside the five years, whatever day the tests run. */
const RENEWED_UNTIL = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

// The matrix printed at the end: one row per (actor, target), one column per action.
const matrix = new Map<string, Partial<Record<ActionName, string>>>();

function outcomeOf(answer: Answer): string {
  if (answer.status === "success") return "ok";
  if (answer.status !== "failed") return answer.status;
  const short: Record<string, string> = {
    [SIGNED_OUT]: "signed out",
    [NOT_FOUND]: "NOT_FOUND",
    [NOT_SEEN]: "NOT_FOUND (see)",
    [NOT_THERE]: "can't keep there",
  };
  return short[answer.message ?? ""] ?? (answer.message?.includes("already") ? "duplicate" : `failed: ${answer.message}`);
}

function matrixTable() {
  const columns: ActionName[] = ["add", "correct", "pin", "renew", "forget", "restore", "purge", "history"];
  return Object.fromEntries(
    [...matrix].map(([row, cells]) => [row, Object.fromEntries(columns.map((c) => [c, cells[c] ?? "·"]))]),
  );
}

/** Calls an action as `who`, recording the outcome in the matrix (malformed input counts in one row). */
async function as(who: Caller, action: ActionName, input: Input, cell: string): Promise<Answer> {
  signInAs(who === "nobody" ? null : who);
  revalidatePath.mockClear();
  const answer = await run(action, input);
  if (cell.startsWith("malformed")) {
    const row = matrix.get(MALFORMED) ?? {};
    const seen = Number(/\d+/.exec(row[action] ?? "")?.[0] ?? 0);
    const same = answer.status === "invalid_data" && (row[action] ?? "invalid_data").startsWith("invalid_data");
    matrix.set(MALFORMED, { ...row, [action]: same ? `invalid_data ×${seen + 1}` : `${outcomeOf(answer)} (${cell})` });
  } else {
    const row = `${who} · ${cell}`;
    matrix.set(row, { ...matrix.get(row), [action]: outcomeOf(answer) });
  }
  return answer;
}
const MALFORMED = "any · malformed input";

/** A refusal: exactly this answer, nothing refreshed, and the database exactly as it was. */
async function refused(who: Caller, action: ActionName, input: Input, cell: string, expected: Answer) {
  const before = await snapshot();
  const answer = await as(who, action, input, cell);
  expect(answer, `${action} by ${who}: ${cell}`).toEqual(expected);
  expect(revalidatePath).not.toHaveBeenCalled();
  expect(await snapshot()).toEqual(before);
  return answer;
}

/** Malformed input: "invalid_data" with a message, nothing refreshed, nothing changed. */
async function invalid(who: Caller, action: ActionName, input: unknown, cell: string) {
  const before = await snapshot();
  const answer = await as(who, action, input as Input, cell);
  expect(answer, `${action}: ${cell}`).toEqual({ status: "invalid_data", message: expect.any(String) });
  expect(revalidatePath).not.toHaveBeenCalled();
  expect(await snapshot()).toEqual(before);
}

/** A change that must go through: success, and the agent's Memory page refreshed once. */
async function allowed(who: Caller, action: ActionName, input: Input, cell: string, where: Where = ACME) {
  const answer = await as(who, action, input, cell);
  expect(answer, `${action} by ${who}: ${cell}`).toMatchObject({ status: "success" });
  expect(revalidatePath).toHaveBeenCalledTimes(1);
  expect(revalidatePath).toHaveBeenCalledWith(pageOf(where));
  return answer;
}

// --- The app talks to the temporary file ---

it("the actions read and write the temporary database, not a default one", async () => {
  const appIds = await appDb.select({ id: facts.id }).from(facts).orderBy(facts.seq);
  expect(appIds.map((f) => f.id)).toEqual(seeded.facts.map((f) => f.id));
});

// --- Changing a fact: correct, pin, forget, restore, purge ---

type Cell = { who: Caller; cell: string; fact: FactName | "missing"; where?: Where; extra?: Record<string, unknown> };

/** Who may not change what: every cell gets the same answer as a fact that doesn't exist. */
const REFUSED: (Cell & { message: string })[] = [
  { who: "nobody", cell: "signed out", fact: "releases", message: SIGNED_OUT },
  { who: "nobody", cell: "signed out, own person fact", fact: "anaPerson", message: SIGNED_OUT },
  { who: "ghost", cell: "cookie of a person who is gone", fact: "anaPerson", message: NOT_FOUND },
  { who: "gina", cell: "acme's workspace fact (not a member)", fact: "releases", message: NOT_FOUND },
  { who: "gina", cell: "acme's person fact (not a member)", fact: "anaPerson", message: NOT_FOUND },
  { who: "ana", cell: "a fact that doesn't exist", fact: "missing", message: NOT_FOUND },
  { who: "ana", cell: "workspace fact told by Olivia (sees, can't change)", fact: "releases", message: NOT_FOUND },
  { who: "max", cell: "workspace fact kept by Scout (sees, can't change)", fact: "sso", message: NOT_FOUND },
  { who: "ana", cell: "#leadership fact (can't see)", fact: "budget", message: NOT_FOUND },
  { who: "gus", cell: "#leadership fact (can't see)", fact: "budget", message: NOT_FOUND },
  { who: "ana", cell: "Max's person fact (can't see)", fact: "maxPerson", message: NOT_FOUND },
  { who: "gus", cell: "Max and Ana's group DM fact (can't see)", fact: "pairing", message: NOT_FOUND },
  { who: "olivia", cell: "Ana's person fact (owner)", fact: "anaPerson", message: NOT_FOUND },
  { who: "olivia", cell: "Max and Ana's group DM fact (owner)", fact: "pairing", message: NOT_FOUND },
  // Tampered requests: the fields are the caller's to write.
  { who: "olivia", cell: "workspace=globex, acme fact", fact: "releases", where: GLOBEX_SCOUT, message: NOT_FOUND },
  { who: "ana", cell: "workspace=globex agent=echo, globex fact", fact: "globex", where: GLOBEX, message: NOT_FOUND },
  { who: "olivia", cell: "agent=echo in acme, globex fact", fact: "globex", where: ACME_ECHO, message: NOT_FOUND },
  { who: "olivia", cell: "agent=echo in acme, acme fact", fact: "releases", where: ACME_ECHO, message: NOT_FOUND },
  { who: "gina", cell: "own workspace and agent, acme fact id", fact: "releases", where: GLOBEX, message: NOT_FOUND },
  { who: "gina", cell: "own workspace, agent=scout", fact: "releases", where: GLOBEX_SCOUT, message: NOT_FOUND },
  {
    who: "ana",
    cell: "workspace fact, extra fields claiming to be Olivia",
    fact: "releases",
    extra: { role: "owner", userId: "olivia", viewer: { userId: "olivia", workspaceId: "acme" } },
    message: NOT_FOUND,
  },
];

/** Who may change what, as changeableBy in lib/memory/rules.ts decides. */
const ALLOWED: Cell[] = [
  { who: "olivia", cell: "workspace fact told by Olivia (owner)", fact: "releases" },
  { who: "olivia", cell: "workspace fact kept by Scout (owner)", fact: "sso" },
  { who: "ana", cell: "her own person fact", fact: "anaPerson" },
  { who: "max", cell: "#leadership fact (he's in it)", fact: "budget" },
  { who: "olivia", cell: "#leadership fact (she's in it)", fact: "budget" },
  { who: "gus", cell: "#support fact (public, not joined)", fact: "refunds" },
  { who: "ana", cell: "Max and Ana's group DM fact (she's in it)", fact: "pairing" },
  { who: "gina", cell: "globex's workspace fact (owner)", fact: "globex", where: GLOBEX },
];

const CHANGES: FactActionName[] = ["correct", "pin", "renew", "forget", "restore", "purge"];
/** Restore and purge act on "Recently forgotten": their targets are forgotten first, so only the rule can refuse. */
const actsOnForgotten = (action: FactActionName) => action === "restore" || action === "purge";

describe.each(CHANGES)("%sFactAction", (action) => {
  beforeEach(async () => {
    if (actsOnForgotten(action)) await forgetDirectly(Object.keys(DEMO_FACTS) as FactName[]);
  });

  it.each(REFUSED)("refuses $who: $cell", async ({ who, cell, fact, where, extra, message }) => {
    const factId = fact === "missing" ? "fact_missing" : ids[fact];
    await refused(who, action, { ...(await inputFor(action, factId, where)), ...extra }, cell, {
      status: "failed",
      message,
    });
  });

  it.each(ALLOWED)("lets $who change: $cell", async ({ who, cell, fact, where }) => {
    const id = ids[fact as FactName];
    const before = await factRow(id);
    const eventsBefore = await eventsOf(id);
    await allowed(who, action, await inputFor(action, id, where), cell, where);

    const actor = who === "nobody" ? "" : who;
    const after = await factRow(id);
    const added = (await eventsOf(id)).slice(eventsBefore.length);
    switch (action) {
      case "correct":
        expect(after).toMatchObject({
          body: "A better sentence than before.",
          version: before.version + 1,
          sourceKind: "person",
          sourceLabel: `@${actor}`,
          createdBy: before.createdBy, // who first kept it stays
          correctedAt: expect.any(String),
        });
        expect(added.map((e) => [e.kind, e.actorId, e.before, e.after])).toEqual([
          ["correct", actor, before.body, "A better sentence than before."],
        ]);
        break;
      case "pin":
        expect(after.pinned).toBe(!before.pinned);
        expect(added.map((e) => [e.kind, e.actorId])).toEqual([[before.pinned ? "unpin" : "pin", actor]]);
        break;
      case "renew":
        // The end moves; the text, source and recency stay; history says it as a correction of the date.
        expect(after).toMatchObject({
          validUntil: RENEWED_UNTIL,
          version: before.version + 1,
          body: before.body,
          sourceLabel: before.sourceLabel,
          updatedAt: before.updatedAt,
        });
        expect(added.map((e) => [e.kind, e.actorId, e.before, e.after])).toEqual([
          ["correct", actor, "no end date", `until ${RENEWED_UNTIL}`],
        ]);
        break;
      case "forget":
        expect(after.forgottenAt).toEqual(expect.any(String));
        expect(added.map((e) => [e.kind, e.actorId, e.before])).toEqual([["forget", actor, before.body]]);
        break;
      case "restore":
        expect(after.forgottenAt).toBeNull();
        expect(added.map((e) => [e.kind, e.actorId, e.after])).toEqual([["restore", actor, before.body]]);
        break;
      case "purge":
        expect(after).toBeUndefined();
        expect(await eventsOf(id)).toEqual([]);
        break;
    }
  });

  it("refuses malformed input before anything else", async () => {
    const target = { ...ACME, factId: ids.anaPerson };
    const good = await inputFor(action, ids.anaPerson);
    const cases: [string, unknown][] = [
      ["malformed: nothing", {}],
      ["malformed: null body", null],
      ["malformed: a string body", "factId=1"],
      ["malformed: no factId", { ...good, factId: undefined }],
      ["malformed: no workspace", { ...good, workspace: undefined }],
      ["malformed: no agent", { ...good, agent: undefined }],
      ["malformed: factId a number", { ...good, factId: 42 }],
      ["malformed: factId blank", { ...good, factId: "   " }],
      ["malformed: workspace an object", { ...good, workspace: { $ne: null } }],
      ["malformed: empty form", new FormData()],
    ];
    if (action === "correct") {
      cases.push(
        ['malformed: version "abc"', { ...target, version: "abc", text: "New text." }],
        ["malformed: no version", { ...target, text: "New text." }],
        ["malformed: version 0", { ...target, version: 0, text: "New text." }],
        ["malformed: version 1.5", { ...target, version: 1.5, text: "New text." }],
        ["malformed: no text", { ...target, version: 1 }],
        ["malformed: text a number", { ...target, version: 1, text: 42 }],
        ["malformed: text too long", { ...target, version: 1, text: "x".repeat(2001) }],
      );
    }
    if (action === "renew") {
      cases.push(
        ["malformed: no valid_until", target],
        ["malformed: valid_until blank", { ...target, valid_until: "" }],
        ["malformed: valid_until yesterday", { ...target, valid_until: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10) }],
        ["malformed: valid_until six years ahead", { ...target, valid_until: `${new Date().getUTCFullYear() + 6}-01-01` }],
        ["malformed: valid_until day-first", { ...target, valid_until: "31/12/2027" }],
        ["malformed: valid_until a number", { ...target, valid_until: 20271231 }],
      );
    }
    if (action === "pin") {
      cases.push(
        ['malformed: pinned "maybe"', { ...target, pinned: "maybe" }],
        ["malformed: no pinned", target],
        ["malformed: pinned 1", { ...target, pinned: 1 }],
      );
    }
    for (const [cell, input] of cases) await invalid("ana", action, input, cell);
    // Malformed input is answered the same signed out: nothing is looked up.
    await invalid("nobody", action, { factId: ids.releases }, "malformed, signed out");
  });
});

describe("correctFactAction: edits don't overwrite each other", () => {
  it("refuses a stale version with the current text, and changes nothing", async () => {
    const first = { ...ACME, factId: ids.releases, version: 1, text: "Releases go out on Wednesdays." };
    await allowed("olivia", "correct", first, "workspace fact, version 1");

    const stale = { ...first, text: "Releases go out on Fridays." };
    await refused("olivia", "correct", stale, "workspace fact, stale version 1", {
      status: "stale",
      message: "Someone changed this fact while you were editing it.",
      current: { body: "Releases go out on Wednesdays.", version: 2 },
    });
    await refused("olivia", "correct", { ...stale, version: 99 }, "workspace fact, version from the future", {
      status: "stale",
      message: "Someone changed this fact while you were editing it.",
      current: { body: "Releases go out on Wednesdays.", version: 2 },
    });
  });

  it("never shows the current text of a fact the person can't change, whatever the version", async () => {
    for (const [who, fact] of [
      ["ana", "budget"],
      ["ana", "releases"],
      ["olivia", "anaPerson"],
      ["gina", "releases"],
    ] as const) {
      const input = { ...ACME, factId: ids[fact], version: 99, text: "Anything." };
      await refused(who, "correct", input, `${fact}, stale version`, { status: "failed", message: NOT_FOUND });
    }
  });

  it("sets, keeps and clears the end date beside the text: left out it stays, blank clears it", async () => {
    const target = { ...ACME, factId: ids.anaPerson, version: 1 };
    await allowed("ana", "correct", { ...target, text: DEMO_FACTS.anaPerson, valid_until: RENEWED_UNTIL }, "own person fact, date only");
    expect(await factRow(ids.anaPerson)).toMatchObject({ validUntil: RENEWED_UNTIL, body: DEMO_FACTS.anaPerson, version: 2 });
    await allowed("ana", "correct", { ...target, version: 2, text: "Ana prefers Portuguese." }, "own person fact, text only");
    expect(await factRow(ids.anaPerson)).toMatchObject({ validUntil: RENEWED_UNTIL, body: "Ana prefers Portuguese." });
    await allowed("ana", "correct", form({ ...ACME, factId: ids.anaPerson, version: "3", text: "Ana prefers Portuguese.", valid_until: "" }), "own person fact, date cleared");
    expect(await factRow(ids.anaPerson)).toMatchObject({ validUntil: null, version: 4 });
    expect((await eventsOf(ids.anaPerson)).slice(-3).map((e) => [e.kind, e.before, e.after])).toEqual([
      ["correct", "no end date", `until ${RENEWED_UNTIL}`],
      ["correct", DEMO_FACTS.anaPerson, "Ana prefers Portuguese."],
      ["correct", `until ${RENEWED_UNTIL}`, "no end date"],
    ]);
    await invalid("ana", "correct", { ...target, version: 4, text: "Ana prefers Portuguese.", valid_until: "2001-01-01" }, "malformed: a past end date");
  });

  it("takes the page's FormData, with the version as a string", async () => {
    const fields = { ...ACME, factId: ids.anaPerson, version: "1", text: "Ana prefers Portuguese." };
    await allowed("ana", "correct", form(fields), "own person fact, form");
    expect((await factRow(ids.anaPerson)).body).toBe("Ana prefers Portuguese.");
  });

  it("refuses blank text and credentials, and says nothing changed for the same text", async () => {
    const target = { ...ACME, factId: ids.anaPerson, version: 1 };
    await refused("ana", "correct", { ...target, text: " \n " }, "own person fact, blank text", {
      status: "invalid_data",
      message: "A fact can't be empty.",
    });
    await refused("ana", "correct", { ...target, text: "password=hunter22" }, "own person fact, a password", {
      status: "invalid_data",
      message: expect.stringContaining("Mnemo never keeps credentials"),
    });
    // Not a refusal, but nothing to write: no event, no refresh.
    await refused("ana", "correct", { ...target, text: DEMO_FACTS.anaPerson }, "own person fact, same text", {
      status: "success",
      message: "Nothing changed.",
    });
    const twin = { ...ACME, factId: ids.sso, version: 1, text: "releases go out on thursdays" };
    await refused("olivia", "correct", twin, "workspace fact, a twin's text", {
      status: "failed",
      message: "Scout already has a fact with this text here.",
    });
  });
});

describe("pin, forget, restore and purge: only in the right state", () => {
  it("pins and unpins from the page's values, and pinning a pinned fact writes nothing", async () => {
    const releases = { ...ACME, factId: ids.releases };
    await allowed("olivia", "pin", { ...releases, pinned: "false" }, "workspace fact, unpin (form value)");
    expect((await factRow(ids.releases)).pinned).toBe(false);
    await allowed("olivia", "pin", { ...releases, pinned: true }, "workspace fact, pin");
    expect((await factRow(ids.releases)).pinned).toBe(true);
    const before = await snapshot();
    const again = await as("olivia", "pin", { ...releases, pinned: true }, "workspace fact, pin again");
    expect(again).toEqual({ status: "success", message: "Pinned." });
    expect(await snapshot()).toEqual(before);
  });

  it("forgets only live facts, restores and purges only forgotten ones", async () => {
    const target = { ...ACME, factId: ids.anaPerson };
    const notFound = { status: "failed", message: NOT_FOUND };
    await refused("ana", "restore", target, "own live person fact, restore", notFound);
    await refused("ana", "purge", target, "own live person fact, purge", notFound);
    await allowed("ana", "forget", target, "own person fact, forget");
    await refused("ana", "forget", target, "own forgotten person fact, forget again", notFound);
    await allowed("ana", "restore", target, "own person fact, restore");
    await allowed("ana", "forget", target, "own person fact, forget");
    await allowed("ana", "purge", target, "own forgotten person fact, purge");
    await refused("ana", "restore", target, "own purged person fact, restore", notFound);
  });

  it("restores nothing forgotten longer ago than 7 days", async () => {
    await forgetDirectly(["anaPerson"], 8);
    await refused("ana", "restore", { ...ACME, factId: ids.anaPerson }, "own person fact forgotten 8 days ago", {
      status: "failed",
      message: NOT_FOUND,
    });
  });
});

// --- Adding a fact ---

describe("addFactAction", () => {
  const add = (fields: Record<string, string>, where: Where = ACME) => form({ ...where, ...fields });

  it("refuses people outside the workspace, and tampered workspace or agent", async () => {
    const fact = { text: "Acme is moving offices.", scope: "person" };
    const notFound = { status: "failed", message: NOT_FOUND };
    await refused("nobody", "add", add(fact), "signed out", { status: "failed", message: SIGNED_OUT });
    await refused("ghost", "add", add(fact), "cookie of a person who is gone", notFound);
    await refused("gina", "add", add(fact), "acme (not a member)", notFound);
    await refused("gina", "add", add(fact, GLOBEX_SCOUT), "own workspace, agent=scout", notFound);
    await refused("ana", "add", add(fact, GLOBEX), "workspace=globex agent=echo", notFound);
    await refused("ana", "add", add(fact, ACME_ECHO), "agent=echo in acme", notFound);
  });

  it("refuses a forged scope and channels the person can't read, writing nothing", async () => {
    const notThere = { status: "failed", message: NOT_THERE };
    const text = "Everyone gets Fridays off.";
    await refused("ana", "add", add({ text, scope: "workspace" }), "scope=workspace (member)", notThere);
    await refused("max", "add", add({ text, scope: "workspace" }), "scope=workspace (member)", notThere);
    for (const channel of ["leadership", "dm-max", "dm-gus", "lobby", "no-such-channel", ""]) {
      await refused("ana", "add", add({ text, scope: "channel", channel }), `channel=${channel || "(blank)"}`, notThere);
    }
    await refused("ana", "add", add({ text, scope: "channel" }), "channel missing", notThere);
    for (const channel of ["dm-ana", "group-max-ana"]) {
      await refused("olivia", "add", add({ text, scope: "channel", channel }), `channel=${channel} (owner)`, notThere);
    }
    const acmeChannel = add({ text, scope: "channel", channel: "general" }, GLOBEX);
    await refused("gina", "add", acmeChannel, "globex, channel=general (acme's)", notThere);
  });

  it("refuses malformed input, blank text and credentials", async () => {
    await invalid("ana", "add", add({ text: "Fine.", scope: "everyone" }), "malformed: scope=everyone");
    await invalid("ana", "add", add({ text: "Fine." }), "malformed: no scope");
    await invalid("ana", "add", add({ scope: "person" }), "malformed: no text");
    await invalid("ana", "add", { ...ACME, text: 42, scope: "person" }, "malformed: text a number");
    const arrayChannel = { ...ACME, text: "Fine.", scope: "person", channel: ["general"] };
    await invalid("ana", "add", arrayChannel, "malformed: channel an array");
    await invalid("ana", "add", { text: "Fine.", scope: "person" }, "malformed: no workspace or agent");
    await invalid("ana", "add", null, "malformed: null body");
    await refused("ana", "add", add({ text: "  \n ", scope: "person" }), "blank text", {
      status: "invalid_data",
      message: "Write the fact first.",
    });
    await refused("ana", "add", add({ text: "my key is sk-abcdefghijklmnopqrstuvwx", scope: "person" }), "an API key", {
      status: "invalid_data",
      message: expect.stringContaining("Mnemo never keeps credentials"),
    });
  });

  it("keeps 'Just me' as the signed-in person's own pinned fact, whatever else the form claims", async () => {
    const before = (await snapshot()).facts.length;
    await allowed(
      "ana",
      "add",
      add({ text: "Ana is out on Fridays.", scope: "person", userId: "max", scopeRef: "max", createdBy: "max" }),
      "scope=person, fields claiming to be Max",
    );
    const after = (await snapshot()).facts;
    expect(after).toHaveLength(before + 1);
    expect(after.find((f) => f.body === "Ana is out on Fridays.")).toMatchObject({
      agentId: "scout",
      workspaceId: "acme",
      scope: "person",
      scopeRef: "ana",
      createdBy: "ana",
      createdByKind: "user",
      pinned: true,
    });
  });

  it("keeps channel facts where the person can read, and workspace facts from owners", async () => {
    const toChannel = (text: string, channel: string) => add({ text, scope: "channel", channel });
    await allowed("ana", "add", toChannel("Support answers within a day.", "support"), "channel=support");
    const weekends = toChannel("Support is staffed on weekends.", "support");
    await allowed("gus", "add", weekends, "channel=support (public, not joined)");
    await allowed("ana", "add", toChannel("The migration ends in May.", "group-max-ana"), "channel=group-max-ana");
    await allowed("olivia", "add", add({ text: "Offices close at six.", scope: "workspace" }), "scope=workspace (owner)");
    const globex = add({ text: "Globex ships on Mondays.", scope: "workspace" }, GLOBEX);
    await allowed("gina", "add", globex, "globex, scope=workspace (owner)", GLOBEX);
    const rows = (await snapshot()).facts;
    const byBody = (body: string) => rows.find((f) => f.body === body);
    expect(byBody("Support answers within a day.")).toMatchObject({
      scope: "channel",
      scopeRef: "support",
      createdBy: "ana",
    });
    expect(byBody("The migration ends in May.")).toMatchObject({ scope: "channel", scopeRef: "group-max-ana" });
    expect(byBody("Offices close at six.")).toMatchObject({ scope: "workspace", scopeRef: "", createdBy: "olivia" });
    expect(byBody("Globex ships on Mondays.")).toMatchObject({ agentId: "echo", workspaceId: "globex" });
  });

  it("keeps the 'Until' day with the fact, and none when it is left blank", async () => {
    await allowed("ana", "add", add({ text: "Ana is away this week.", scope: "person", valid_until: RENEWED_UNTIL }), "scope=person, until tomorrow");
    await allowed("ana", "add", add({ text: "Ana likes tea.", scope: "person", valid_until: "" }), "scope=person, no end");
    const rows = (await snapshot()).facts;
    expect(rows.find((f) => f.body === "Ana is away this week.")?.validUntil).toBe(RENEWED_UNTIL);
    expect(rows.find((f) => f.body === "Ana likes tea.")?.validUntil).toBeNull();
    await invalid("ana", "add", add({ text: "Ana was away.", scope: "person", valid_until: "2001-01-01" }), "malformed: add until a past day");
    // Told again with Until blank, the fact keeps its end; with a day, it moves there.
    await allowed("ana", "add", add({ text: "ana is away this week", scope: "person", valid_until: "" }), "scope=person, a twin, blank until");
    const twin = () => snapshot().then((s) => s.facts.find((f) => f.body === "Ana is away this week."));
    expect((await twin())?.validUntil).toBe(RENEWED_UNTIL);
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    await allowed("ana", "add", add({ text: "Ana is away this week.", scope: "person", valid_until: later }), "scope=person, a twin, new until");
    expect((await twin())?.validUntil).toBe(later);
  });

  it("refreshes a fact the person already told instead of adding a row", async () => {
    const before = (await snapshot()).facts.length;
    const twin = add({ text: "ana prefers replies in portuguese", scope: "person" });
    const answer = await allowed("ana", "add", twin, "scope=person, a twin");
    expect(answer.message).toBe("Scout already knew that; it is marked as fresh again.");
    expect((await snapshot()).facts).toHaveLength(before);
    expect((await factRow(ids.anaPerson)).pinned).toBe(true);
  });
});

// --- History ---

describe("factHistoryAction", () => {
  it("shows the history of any fact the person can see, including ones they can't change", async () => {
    const releases = { ...ACME, factId: ids.releases };
    const seen = await as("ana", "history", releases, "workspace fact told by Olivia (sees, can't change)");
    expect(seen).toEqual({
      status: "success",
      events: [
        {
          kind: "remember",
          actorName: "Olivia Owen",
          actorKind: "user",
          before: null,
          after: DEMO_FACTS.releases,
          placeLabel: null,
          at: expect.any(String),
        },
      ],
    });
    for (const [who, fact, cell] of [
      ["ana", "anaPerson", "her own person fact"],
      ["max", "budget", "#leadership fact (he's in it)"],
      ["gus", "refunds", "#support fact (public, not joined)"],
      ["ana", "pairing", "Max and Ana's group DM fact (she's in it)"],
    ] as const) {
      const answer = await as(who, "history", { ...ACME, factId: ids[fact] }, cell);
      expect(answer, cell).toMatchObject({ status: "success", events: [{ kind: "remember", after: DEMO_FACTS[fact] }] });
    }
    const globex = await as("gina", "history", { ...GLOBEX, factId: ids.globex }, "globex's workspace fact (owner)");
    expect(globex).toMatchObject({ status: "success", events: [{ kind: "remember", actorName: "Echo" }] });

    // Changes show up, with who made them and the text before and after.
    const correction = { ...releases, version: 1, text: "Releases go out on Wednesdays." };
    await allowed("olivia", "correct", correction, "workspace fact, version 1");
    expect(await as("ana", "history", releases, "workspace fact after Olivia's correction")).toMatchObject({
      status: "success",
      events: [
        { kind: "remember", actorName: "Olivia Owen" },
        { kind: "correct", actorName: "Olivia Owen", before: DEMO_FACTS.releases, after: "Releases go out on Wednesdays." },
      ],
    });
  });

  it("gives one answer for a fact that is missing and one the person can't see, and reveals nothing", async () => {
    const notSeen = { status: "failed", message: NOT_SEEN };
    const cells: [Caller, FactName | "missing", string, Where?][] = [
      ["ana", "missing", "a fact that doesn't exist"],
      ["ana", "budget", "#leadership fact (can't see)"],
      ["ana", "maxPerson", "Max's person fact (can't see)"],
      ["gus", "pairing", "Max and Ana's group DM fact (can't see)"],
      ["olivia", "anaPerson", "Ana's person fact (owner)"],
      ["olivia", "pairing", "Max and Ana's group DM fact (owner)"],
      ["gina", "releases", "own workspace and agent, acme fact id", GLOBEX],
    ];
    for (const [who, fact, cell, where] of cells) {
      const factId = fact === "missing" ? "fact_missing" : ids[fact];
      await refused(who, "history", { ...(where ?? ACME), factId }, cell, notSeen);
    }
    // Outside the workspace, or with a tampered workspace or agent, the builder answers first.
    const notFound = { status: "failed", message: NOT_FOUND };
    const signedOut = { status: "failed", message: SIGNED_OUT };
    await refused("nobody", "history", { ...ACME, factId: ids.releases }, "signed out", signedOut);
    await refused("ghost", "history", { ...ACME, factId: ids.anaPerson }, "cookie of a person who is gone", notFound);
    await refused("gina", "history", { ...ACME, factId: ids.releases }, "acme's workspace fact (not a member)", notFound);
    await refused("olivia", "history", { ...GLOBEX_SCOUT, factId: ids.releases }, "workspace=globex, acme fact", notFound);
    await refused("olivia", "history", { ...ACME_ECHO, factId: ids.globex }, "agent=echo in acme, globex fact", notFound);
    await invalid("ana", "history", { ...ACME }, "malformed: no factId");
    await invalid("ana", "history", { ...ACME, factId: 42 }, "malformed: factId a number");
  });
});

// --- Access is read from the database on every call, never remembered ---

describe("membership, role and channel access are re-checked on every call", () => {
  it("refuses a person who has left the workspace, even on their own fact", async () => {
    const own = { ...ACME, factId: ids.anaPerson };
    expect(await as("ana", "history", own, "her own person fact")).toMatchObject({ status: "success" });
    await t.db.delete(memberships).where(eq(memberships.userId, "ana"));
    const notFound = { status: "failed", message: NOT_FOUND };
    const cell = "own person fact, after leaving acme";
    await refused("ana", "correct", { ...own, version: 1, text: "Still here." }, cell, notFound);
    await refused("ana", "pin", { ...own, pinned: true }, cell, notFound);
    await refused("ana", "forget", own, cell, notFound);
    await refused("ana", "history", own, cell, notFound);
    await refused("ana", "add", form({ ...ACME, text: "Still here.", scope: "person" }), cell, notFound);
  });

  it("refuses an owner who was made a member on workspace facts, and lets her keep the rest", async () => {
    await t.db.update(memberships).set({ role: "member" }).where(eq(memberships.userId, "olivia"));
    const releases = { ...ACME, factId: ids.releases };
    const notFound = { status: "failed", message: NOT_FOUND };
    const cell = "workspace fact, after demotion";
    await refused("olivia", "correct", { ...releases, version: 1, text: "Anything." }, cell, notFound);
    await refused("olivia", "pin", { ...releases, pinned: false }, cell, notFound);
    await refused("olivia", "forget", releases, cell, notFound);
    const workspaceFact = form({ ...ACME, text: "Offices close at six.", scope: "workspace" });
    await refused("olivia", "add", workspaceFact, cell, { status: "failed", message: NOT_THERE });
    await allowed("olivia", "pin", { ...ACME, factId: ids.budget, pinned: true }, "#leadership fact, after demotion");
  });

  it("refuses a person taken out of a private channel on that channel's facts", async () => {
    await t.db
      .delete(channelMembers)
      .where(and(eq(channelMembers.channelId, "leadership"), eq(channelMembers.userId, "max")));
    const budget = { ...ACME, factId: ids.budget };
    const cell = "#leadership fact, after leaving it";
    const edit = { ...budget, version: 1, text: "Anything." };
    await refused("max", "correct", edit, cell, { status: "failed", message: NOT_FOUND });
    await refused("max", "history", budget, cell, { status: "failed", message: NOT_SEEN });
    const channelFact = form({ ...ACME, text: "Budget talk.", scope: "channel", channel: "leadership" });
    await refused("max", "add", channelFact, cell, { status: "failed", message: NOT_THERE });
  });
});

describe("restoreFactAction: never beside a live twin", () => {
  it("refuses to restore a fact whose text was told again meanwhile", async () => {
    const own = { ...ACME, factId: ids.anaPerson };
    await allowed("ana", "forget", own, "own person fact, forget");
    const again = form({ ...ACME, text: DEMO_FACTS.anaPerson, scope: "person" });
    await allowed("ana", "add", again, "own person fact, told again");
    await refused("ana", "restore", own, "own person fact, restore beside its twin", {
      status: "failed",
      message: "Scout already remembers a fact with this text.",
    });
  });
});
