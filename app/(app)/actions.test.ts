/** Starting a workspace, called as the public POST endpoint it is, on a fresh demo file per test. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditEvents, memberships, workspaces } from "@/db/schema";
import type { SignedInUser } from "@/lib/auth/session";
import { appDemoDbForEachTest } from "@/lib/testing/app-db";

const doubles = vi.hoisted(() => ({ user: null as SignedInUser | null }));

vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/session", async (importOriginal) => ({
  ...(await importOriginal<typeof import("@/lib/auth/session")>()),
  currentUser: async () => doubles.user,
}));
// The Auth.js config only resolves inside Next's bundler; these actions use nothing of it here.
vi.mock("@/lib/auth", () => ({ auth: async () => null, signOut: vi.fn() }));

const testDb = appDemoDbForEachTest();
const ANA: SignedInUser = { id: "ana", name: "Ana Alves", email: "ana@acme.test", handle: "ana" };

beforeEach(() => {
  doubles.user = null;
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

describe("createWorkspaceAction", () => {
  it("makes any signed-in person the first owner of a new workspace, and sends them to its settings", async () => {
    const { createWorkspaceAction } = await import("./actions");
    doubles.user = ANA;
    expect(await createWorkspaceAction(form({ name: "  Acme  " }))).toEqual({
      status: "success",
      message: "Acme is ready. Add the people in it.",
      href: "/w/acme-2/settings",
    });
    const db = testDb().db;
    expect(await db.select().from(workspaces).where(eq(workspaces.id, "acme-2"))).toMatchObject([{ name: "Acme" }]);
    expect(await db.select().from(memberships).where(eq(memberships.workspaceId, "acme-2"))).toMatchObject([
      { userId: "ana", role: "owner" },
    ]);
    const audit = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, "acme-2"), eq(auditEvents.action, "workspace.create")));
    expect(audit).toMatchObject([{ actorId: "ana", summary: "Acme" }]);
  });

  it("refuses the signed out and a blank name, creating nothing", async () => {
    const { createWorkspaceAction } = await import("./actions");
    expect(await createWorkspaceAction(form({ name: "Team" }))).toEqual({
      status: "failed",
      message: "Your session has ended. Sign in again.",
    });
    doubles.user = ANA;
    expect(await createWorkspaceAction(form({ name: "   " }))).toEqual({ status: "invalid_data", message: "Name the workspace." });
    expect(await testDb().db.select({ id: workspaces.id }).from(workspaces)).toEqual([{ id: "acme" }, { id: "globex" }]);
  });
});
