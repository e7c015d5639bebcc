/**
 * The audit list after an owner has done one of everything: who, what, when,
 * newest first, page by page, one workspace at a time — and never a fact's text.
 */
import { describe, expect, it } from "vitest";
import { facts } from "@/db/schema";
import { freshDemoForEachTest } from "@/lib/testing/demo-db";
import { createAgentKey, revokeAgentKey } from "./agent-keys";
import { createAgent, deleteAgent, renameAgent } from "./agents";
import { listAudit } from "./audit";
import { addChannelMember, createChannel, removeChannelMember, renameChannel, setChannelKind } from "./channels";
import { cancelInvite, listInvites, renewInvite } from "./invites";
import { addPerson, changeRole, removePerson } from "./people";

const db = freshDemoForEachTest();
const OLIVIA = { id: "olivia", name: "Olivia Owen" };

describe("listAudit", () => {
  it("records every owner action, never with a fact's text, in its own workspace only", async () => {
    const bodies = (await db().select({ body: facts.body }).from(facts)).map((f) => f.body);
    await addPerson(db(), OLIVIA, "acme", { email: "gina@globex.test" });
    const invited = await addPerson(db(), OLIVIA, "acme", { email: "pia@acme.test" });
    if (invited.status !== "invited") throw new Error("expected an invite");
    const waiting = await listInvites(db(), "acme");
    const pia = waiting.find((invite) => invite.email === "pia@acme.test");
    await renewInvite(db(), OLIVIA, "acme", pia?.id ?? "");
    await cancelInvite(db(), OLIVIA, "acme", waiting.find((invite) => invite.email === "gina@globex.test")?.id ?? "");
    await changeRole(db(), OLIVIA, "acme", "max", "owner");
    await removePerson(db(), OLIVIA, "acme", "gus");
    await createChannel(db(), OLIVIA, "acme", { name: "launch", kind: "public" });
    await renameChannel(db(), OLIVIA, "acme", "leadership", "leads");
    await setChannelKind(db(), OLIVIA, "acme", "leadership", "public");
    await addChannelMember(db(), OLIVIA, "acme", "leadership", "ana");
    await removeChannelMember(db(), OLIVIA, "acme", "leadership", "max");
    await createAgent(db(), OLIVIA, "acme", { handle: "helper", name: "Helper" });
    await renameAgent(db(), OLIVIA, "acme", "scout", "Scout II");
    const key = await createAgentKey(db(), OLIVIA, "acme", "scout", "CI");
    await revokeAgentKey(db(), OLIVIA, "acme", key?.id ?? "");
    await deleteAgent(db(), OLIVIA, "acme", "scout", 8);

    const events = await listAudit(db(), "acme");
    expect(events.map((e) => e.action).reverse()).toEqual([
      "member.invite",
      "member.invite",
      "invite.renew",
      "invite.cancel",
      "member.role",
      "member.remove",
      "channel.create",
      "channel.rename",
      "channel.kind",
      "channel.member.add",
      "channel.member.remove",
      "agent.create",
      "agent.rename",
      "key.create",
      "key.revoke",
      "agent.delete",
    ]);
    for (const event of events) {
      expect(event).toMatchObject({ actorName: "Olivia Owen", at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
      for (const body of bodies) expect(event.summary).not.toContain(body);
      expect(event.summary).not.toContain(invited.token);
    }
    expect(await listAudit(db(), "globex")).toEqual([]);
  });

  it("pages from the newest back", async () => {
    for (const name of ["one", "two", "three", "four", "five"]) {
      await createChannel(db(), OLIVIA, "acme", { name, kind: "public" });
    }
    const first = await listAudit(db(), "acme", 2);
    expect(first.map((e) => e.summary)).toEqual(["#five (public)", "#four (public)"]);
    const second = await listAudit(db(), "acme", 2, first[1].id);
    expect(second.map((e) => e.summary)).toEqual(["#three (public)", "#two (public)"]);
    const last = await listAudit(db(), "acme", 2, second[1].id);
    expect(last.map((e) => e.summary)).toEqual(["#one (public)"]);
  });
});
