/** Accepting an invite: once, within 7 days, only for an account with no password yet. */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { invites, users } from "@/db/schema";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { freshDemoForEachTest } from "@/lib/testing/demo-db";
import { listAudit } from "./audit";
import { acceptInvite, INVITE_DAYS, issueInvite, openInvite } from "./invites";
import { addPerson } from "./people";

const db = freshDemoForEachTest();
const OLIVIA = { id: "olivia", name: "Olivia Owen" };
const DAY = 86_400_000;

async function invitePia(): Promise<{ token: string; userId: string }> {
  const result = await addPerson(db(), OLIVIA, "acme", { email: "pia@acme.test", name: "Pia Park" });
  if (result.status !== "invited") throw new Error("expected an invite");
  const [pia] = await db().select().from(users).where(eq(users.email, "pia@acme.test"));
  return { token: result.token, userId: pia.id };
}

describe("acceptInvite", () => {
  it("sets the password once; the link then stops working", async () => {
    const { token, userId } = await invitePia();
    expect(await acceptInvite(db(), token, await hashPassword("a long password"))).toEqual({ email: "pia@acme.test" });
    const [pia] = await db().select().from(users).where(eq(users.id, userId));
    expect(await verifyPassword(pia.passwordHash ?? "", "a long password")).toBe(true);

    expect(await openInvite(db(), token)).toBeNull();
    expect(await acceptInvite(db(), token, await hashPassword("another password"))).toBeNull();
    const [after] = await db().select().from(users).where(eq(users.id, userId));
    expect(after.passwordHash).toBe(pia.passwordHash);
    expect((await listAudit(db(), "acme")).map((e) => [e.action, e.actorName, e.summary]).reverse()).toEqual([
      ["member.invite", "Olivia Owen", "Pia Park <pia@acme.test> as member"],
      ["invite.accept", "Pia Park", "Pia Park"],
    ]);
  });

  it("gives one answer for expired and unknown links", async () => {
    const { token } = await invitePia();
    const later = new Date(Date.now() + (INVITE_DAYS + 1) * DAY);
    expect(await openInvite(db(), token, later)).toBeNull();
    expect(await acceptInvite(db(), token, "hash", later)).toBeNull();
    expect(await openInvite(db(), "A".repeat(43))).toBeNull();
    expect(await acceptInvite(db(), "A".repeat(43), "hash")).toBeNull();
    // Still good just before it expires.
    expect(await openInvite(db(), token, new Date(Date.now() + INVITE_DAYS * DAY - 60_000))).not.toBeNull();
  });

  it("uses up the person's other links, and never opens an account that has a password", async () => {
    const { token, userId } = await invitePia();
    const second = await addPerson(db(), { id: "gina", name: "Gina Grant" }, "globex", { email: "pia@acme.test" });
    if (second.status !== "invited") throw new Error("expected a second invite");
    await acceptInvite(db(), token, await hashPassword("a long password"));
    expect(await openInvite(db(), second.token)).toBeNull();
    expect(await db().select().from(invites).where(eq(invites.userId, userId))).toSatisfy((rows: { acceptedAt: string | null }[]) =>
      rows.every((row) => row.acceptedAt !== null),
    );

    // A link made for max, who already signs in with a password, opens nothing.
    const forMax = await db().transaction((tx) => issueInvite(tx, "acme", "max", "olivia"));
    expect(await openInvite(db(), forMax)).toBeNull();
    expect(await acceptInvite(db(), forMax, "hash")).toBeNull();
  });
});
