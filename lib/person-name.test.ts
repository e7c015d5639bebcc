/**
 * A person who never gave a name (an account made by a sign-in provider) is
 * named by their handle everywhere: in the lists built in SQL as on the pages
 * built in code, and never by the full address other members need not see.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { listChannels } from "@/lib/admin/channels";
import { listPeople } from "@/lib/admin/people";
import { readableChannels } from "@/lib/memory/channels";
import { derivePlace } from "@/lib/memory/place";
import { listVisibleFacts } from "@/lib/memory/store";
import { freshDemoForEachTest } from "@/lib/testing/demo-db";
import { displayName, displayNameSql } from "./person-name";

const db = freshDemoForEachTest();

async function forgetAnasName() {
  await db().update(users).set({ name: null }).where(eq(users.id, "ana"));
}

describe("displayNameSql says what displayName says", () => {
  const people = [
    { name: "Ana Alves", email: "ana@acme.test" },
    { name: null, email: "ana@acme.test" },
    { name: null, email: "first.last+tag@acme.test" },
    { name: null, email: "odd@two@acme.test" },
    { name: null, email: "no-at-sign" },
    { name: null, email: "zoë@acme.test" },
    { name: "", email: "empty@acme.test" },
  ];
  it.each(people)("$name <$email>", async (person) => {
    const [row] = await db().all<{ shown: string }>(
      sql`SELECT ${sql.raw(displayNameSql("p.name", "p.email"))} AS shown FROM (SELECT ${person.name} AS name, ${person.email} AS email) p`,
    );
    expect(row.shown).toBe(displayName(person));
  });
});

describe("a person without a name", () => {
  it("is their handle in the owners' list of people and of channel members", async () => {
    await forgetAnasName();
    expect((await listPeople(db(), "acme")).find((p) => p.id === "ana")?.name).toBe("ana");
    const dmAna = (await listChannels(db(), "acme")).find((c) => c.id === "dm-ana");
    expect(dmAna?.people).toEqual([{ id: "ana", name: "ana" }]);
  });

  it("is their handle where another member picks a group conversation", async () => {
    await forgetAnasName();
    const group = (await readableChannels(db(), { workspaceId: "acme", id: "max" })).find((c) => c.id === "group-max-ana");
    expect(group?.label).toBe("DM with ana");
  });

  it("is their handle as whoever told a fact on the Memory page", async () => {
    await db().update(users).set({ name: null }).where(eq(users.id, "olivia"));
    const { facts } = await listVisibleFacts(db(), { workspaceId: "acme", id: "max" }, "scout", { limit: 100 });
    expect(facts.find((fact) => fact.body === DEMO_FACTS.releases)?.createdByName).toBe("olivia");
  });

  it("is their handle when an agent asks who it is answering", async () => {
    await forgetAnasName();
    const { asker } = await derivePlace(db(), "acme", "dm-ana", "ana");
    expect(asker).toEqual({ id: "ana", name: "ana", handle: "ana" });
  });
});
