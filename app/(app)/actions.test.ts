/** Starting a workspace, called as the public POST endpoint it is, on a fresh demo file per test. */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { and, eq } from "drizzle-orm";
import { auditEvents, memberships, workspaces } from "@/db/schema";
import { WORKSPACES_PER_PERSON } from "@/lib/auth/throttle";
import { appDemoDbForEachTest } from "@/lib/testing/app-db";

const { signInAs } = await vi.hoisted(() => import("@/lib/testing/signed-in"));

const testDb = appDemoDbForEachTest();

beforeEach(() => {
  signInAs(null);
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.set(key, value);
  return data;
}

describe("createWorkspaceAction", () => {
  it("makes any signed-in person the first owner of a new workspace, and sends them to its settings", async () => {
    const { createWorkspaceAction } = await import("./actions");
    signInAs("ana");
    const answer = await createWorkspaceAction(form({ name: "  Acme  " }));
    expect(answer).toEqual({
      status: "success",
      message: "Acme is ready. Add the people in it.",
      href: expect.stringMatching(/^\/w\/acme-[0-9a-z]{6}\/settings$/),
    });
    const id = (answer as { href: string }).href.split("/")[2];
    const db = testDb().db;
    expect(await db.select().from(workspaces).where(eq(workspaces.id, id))).toMatchObject([{ name: "Acme" }]);
    expect(await db.select().from(memberships).where(eq(memberships.workspaceId, id))).toMatchObject([
      { userId: "ana", role: "owner" },
    ]);
    const audit = await db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.workspaceId, id), eq(auditEvents.action, "workspace.create")));
    expect(audit).toMatchObject([{ actorId: "ana", summary: "Acme" }]);
  });

  it("gives ids that say nothing of other workspaces: the same name twice, two unrelated suffixes", async () => {
    const { createWorkspaceAction } = await import("./actions");
    signInAs("ana");
    const ids = [];
    for (const name of ["Globex", "Globex"]) {
      const answer = (await createWorkspaceAction(form({ name }))) as { href: string };
      ids.push(answer.href.split("/")[2]);
    }
    // Not "globex-2", "globex-3": a count would tell that "globex" exists.
    for (const id of ids) expect(id).toMatch(/^globex-[0-9a-z]{6}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("lets one person start a few workspaces an hour, then says how long to wait and starts none", async () => {
    const { createWorkspaceAction } = await import("./actions");
    signInAs("ana");
    for (let i = 0; i < WORKSPACES_PER_PERSON.free; i++) {
      expect(await createWorkspaceAction(form({ name: `Team ${i}` }))).toMatchObject({ status: "success" });
    }
    const before = await testDb().db.select({ id: workspaces.id }).from(workspaces);
    expect(await createWorkspaceAction(form({ name: "One too many" }))).toEqual({
      status: "failed",
      message: expect.stringMatching(/^You started many workspaces lately\. Try again in (60|59) minutes\.$/),
    });
    expect(await testDb().db.select({ id: workspaces.id }).from(workspaces)).toEqual(before);
    signInAs("max");
    expect(await createWorkspaceAction(form({ name: "Max's own" }))).toMatchObject({ status: "success" });
  });

  it("refuses the signed out and a blank name, creating nothing", async () => {
    const { createWorkspaceAction } = await import("./actions");
    expect(await createWorkspaceAction(form({ name: "Team" }))).toEqual({
      status: "failed",
      message: "Your session has ended. Sign in again.",
    });
    signInAs("ana");
    expect(await createWorkspaceAction(form({ name: "   " }))).toEqual({ status: "invalid_data", message: "Name the workspace." });
    expect(await testDb().db.select({ id: workspaces.id }).from(workspaces)).toEqual([{ id: "acme" }, { id: "globex" }]);
  });
});
