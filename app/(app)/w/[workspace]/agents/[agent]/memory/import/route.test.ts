/**
 * The import action called as what it is — a public POST endpoint — against a
 * real temporary database seeded with the demo. Only the signed-in person and
 * Next's revalidatePath are doubles. A member, an owner of another workspace or
 * a signed-out caller gets the small refusal and changes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { eq, notInArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditEvents, factEvents, facts } from "@/db/schema";
import { seedDemo } from "@/db/seed";
import type { SignedInUser } from "@/lib/auth/session";
import { createTempDb, type TempDb } from "@/lib/testing/temp-db";

const doubles = vi.hoisted(() => ({
  user: null as SignedInUser | null,
  revalidatePath: vi.fn<(path: string, type?: string) => void>(),
}));
vi.mock("next/cache", () => ({ revalidatePath: doubles.revalidatePath }));
vi.mock("@/lib/auth/session", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/auth/session")>()),
  currentUser: async () => doubles.user,
}));
vi.mock("@/lib/auth", () => ({ auth: async () => (doubles.user ? { user: { id: doubles.user.id } } : null) }));

const PEOPLE = {
  olivia: { id: "olivia", name: "Olivia Owen", email: "olivia@acme.test", handle: "olivia" },
  ana: { id: "ana", name: "Ana Alves", email: "ana@acme.test", handle: "ana" },
  gina: { id: "gina", name: "Gina Grant", email: "gina@globex.test", handle: "gina" },
} satisfies Record<string, SignedInUser>;

let t: TempDb;
let appDb: Db;
let importFactsAction: (typeof import("./import-actions"))["importFactsAction"];
const originalUrl = process.env.DATABASE_URL;
let demoFactIds: string[];

beforeAll(async () => {
  t = await createTempDb();
  await seedDemo(t.db);
  demoFactIds = (await t.db.select({ id: facts.id }).from(facts)).map((row) => row.id);
  process.env.DATABASE_URL = t.url;
  ({ importFactsAction } = await import("./import-actions"));
  appDb = (await import("@/db")).getDb();
});
afterAll(() => {
  appDb?.$client.close();
  t?.close();
  process.env.DATABASE_URL = originalUrl;
});
beforeEach(async () => {
  // Each test starts from the demo's facts, with no import yet.
  await t.db.transaction(async (tx) => {
    await tx.delete(facts).where(notInArray(facts.id, demoFactIds));
    await tx.delete(auditEvents);
  });
  doubles.user = null;
  doubles.revalidatePath.mockClear();
});

function fileOf(items: unknown[], name = "scout.json"): File {
  return new File([JSON.stringify({ format: "mnemo.facts", version: 1, facts: items })], name, { type: "application/json" });
}

function form(intent: "check" | "import", file: File | string, where = { workspace: "acme", agent: "scout" }): FormData {
  const data = new FormData();
  data.set("workspace", where.workspace);
  data.set("agent", where.agent);
  data.set("intent", intent);
  data.set("file", file);
  return data;
}

const NEW_FACTS = [
  { scope: "workspace", body: "Standups are at 9:30." },
  { scope: "workspace", body: "releases go out on thursdays" },
  { scope: "channel", body: "Support rotates weekly." },
];

async function snapshot() {
  return {
    facts: await t.db.select().from(facts).orderBy(facts.seq),
    events: await t.db.select().from(factEvents).orderBy(factEvents.id),
    audit: await t.db.select().from(auditEvents),
  };
}

describe("importFactsAction", () => {
  it("the dry run counts and changes nothing; the import then adds exactly those facts", async () => {
    doubles.user = PEOPLE.olivia;
    const before = await snapshot();
    const checked = await importFactsAction(form("check", fileOf(NEW_FACTS)));
    expect(checked).toEqual({
      status: "checked",
      canImport: true,
      message: "Ready to import 1 fact. Nothing has changed yet.",
      summary: { toAdd: 1, duplicates: 1, otherScopes: 1, refused: [], refusedCount: 0, kept: 8, overLimitBy: 0 },
    });
    expect(await snapshot()).toEqual(before);
    expect(doubles.revalidatePath).not.toHaveBeenCalled();

    const imported = await importFactsAction(form("import", fileOf(NEW_FACTS)));
    expect(imported).toMatchObject({ status: "imported", summary: { toAdd: 1, duplicates: 1, otherScopes: 1 } });
    expect(await t.db.select().from(facts).where(eq(facts.body, "Standups are at 9:30."))).toMatchObject([
      { scope: "workspace", pinned: true, createdBy: "olivia", createdByKind: "user" },
    ]);
    expect(doubles.revalidatePath).toHaveBeenCalled();

    // The same file again: nothing new, nothing written.
    const again = await importFactsAction(form("import", fileOf(NEW_FACTS)));
    expect(again).toMatchObject({ status: "failed", message: expect.stringContaining("There is nothing new to import") });
  });

  it("names a refused item and offers no import", async () => {
    doubles.user = PEOPLE.olivia;
    const checked = await importFactsAction(form("check", fileOf([...NEW_FACTS, { scope: "workspace", body: "ghp_abcdefghijklmnopqrstuvwxyz0123" }])));
    expect(checked).toMatchObject({
      status: "checked",
      canImport: false,
      summary: { refused: [{ item: 4, reason: "it looks like a GitHub token; Mnemo never keeps credentials" }], refusedCount: 1 },
    });
    const before = await snapshot();
    const forced = await importFactsAction(form("import", fileOf([...NEW_FACTS, { scope: "workspace", body: "ghp_abcdefghijklmnopqrstuvwxyz0123" }])));
    expect(forced).toMatchObject({ status: "failed", message: expect.stringMatching(/^Nothing was imported\./) });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ["signed out", null, { workspace: "acme", agent: "scout" }, "Your session has ended. Sign in again."],
    ["a member", PEOPLE.ana, { workspace: "acme", agent: "scout" }, "There is no such thing in this workspace you can change."],
    ["another workspace's owner", PEOPLE.gina, { workspace: "acme", agent: "scout" }, "There is no such thing in this workspace you can change."],
    ["an owner naming another workspace's agent", PEOPLE.gina, { workspace: "globex", agent: "scout" }, "There is no such thing in this workspace you can change."],
  ])("refuses %s, changing nothing", async (_who, user, where, message) => {
    doubles.user = user;
    const before = await snapshot();
    for (const intent of ["check", "import"] as const) {
      expect(await importFactsAction(form(intent, fileOf(NEW_FACTS), where))).toEqual({ status: "failed", message });
    }
    expect(await snapshot()).toEqual(before);
    expect(doubles.revalidatePath).not.toHaveBeenCalled();
  });

  it("answers a file that is not ours, or no file, in one sentence", async () => {
    doubles.user = PEOPLE.olivia;
    expect(await importFactsAction(form("check", new File(["{"], "x.json")))).toEqual({
      status: "invalid_data",
      message: "The file is not JSON. Use a file made by “Download as JSON” on a Memory page.",
    });
    expect(await importFactsAction(form("check", "not a file"))).toEqual({ status: "invalid_data", message: "Choose a JSON file to import." });
  });
});
