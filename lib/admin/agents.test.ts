/** Owners managing agents, on real database files seeded with the demo (acme's Scout keeps 8 facts). */
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { agentKeys, agents, factEvents, facts } from "@/db/schema";
import { freshDemoForEachTest } from "@/lib/testing/demo-db";
import { createAgentKey } from "./agent-keys";
import { agentSummary, createAgent, deleteAgent, listAgents, renameAgent } from "./agents";
import { listAudit } from "./audit";

const db = freshDemoForEachTest();
const OLIVIA = { id: "olivia", name: "Olivia Owen" };
const GINA = { id: "gina", name: "Gina Grant" };

async function auditActions(workspaceId = "acme") {
  return (await listAudit(db(), workspaceId)).map((event) => [event.action, event.summary]).reverse();
}

describe("listAgents", () => {
  it("lists the workspace's agents with every fact they keep and their live keys", async () => {
    expect(await listAgents(db(), "acme")).toEqual([{ id: "scout", handle: "scout", name: "Scout", facts: 8, liveKeys: 1 }]);
    expect(await agentSummary(db(), "acme", "scout")).toMatchObject({ facts: 8 });
    expect(await agentSummary(db(), "acme", "echo")).toBeNull();
  });
});

describe("createAgent", () => {
  it("creates an agent with a lower-case handle, unique in its workspace only", async () => {
    const created = await createAgent(db(), OLIVIA, "acme", { handle: "Helper", name: "Helper Bot" });
    expect(created).toEqual({ status: "created", id: expect.stringMatching(/^agent_/), handle: "helper" });
    expect(await createAgent(db(), OLIVIA, "acme", { handle: "helper", name: "Another" })).toEqual({ status: "handle_taken" });
    expect(await createAgent(db(), OLIVIA, "acme", { handle: "SCOUT", name: "Scout 2" })).toEqual({ status: "handle_taken" });
    expect(await createAgent(db(), GINA, "globex", { handle: "scout", name: "Globex Scout" })).toMatchObject({ status: "created" });
    expect((await listAgents(db(), "acme")).map((a) => [a.handle, a.name, a.facts])).toEqual([
      ["helper", "Helper Bot", 0],
      ["scout", "Scout", 8],
    ]);
    expect(await auditActions()).toEqual([["agent.create", "@helper (Helper Bot)"]]);
  });
});

describe("renameAgent", () => {
  it("renames an agent of the workspace only", async () => {
    expect(await renameAgent(db(), OLIVIA, "acme", "scout", "Scout the Second")).toEqual({ status: "changed" });
    expect(await renameAgent(db(), OLIVIA, "acme", "scout", "Scout the Second")).toEqual({ status: "unchanged" });
    expect(await renameAgent(db(), OLIVIA, "acme", "echo", "Mine now")).toEqual({ status: "not_found" });
    const names = await db().select({ id: agents.id, name: agents.name }).from(agents).orderBy(agents.id);
    expect(names).toEqual([
      { id: "echo", name: "Echo" },
      { id: "scout", name: "Scout the Second" },
    ]);
    expect(await auditActions()).toEqual([["agent.rename", "@scout: Scout → Scout the Second"]]);
  });
});

describe("deleteAgent", () => {
  it("deletes nothing when the confirmed number of facts is no longer true", async () => {
    expect(await deleteAgent(db(), OLIVIA, "acme", "scout", 7)).toEqual({ status: "changed", facts: 8 });
    expect(await agentSummary(db(), "acme", "scout")).not.toBeNull();
  });

  it("deletes the agent with its facts, their history, their search entries and its keys", async () => {
    await createAgentKey(db(), OLIVIA, "acme", "scout", "CI");
    expect(await deleteAgent(db(), OLIVIA, "acme", "scout", 8)).toEqual({ status: "deleted", name: "Scout", facts: 8 });
    expect(await listAgents(db(), "acme")).toEqual([]);
    expect(await db().select().from(facts).where(eq(facts.agentId, "scout"))).toEqual([]);
    const [{ events }] = await db()
      .select({ events: sql<number>`count(*)` })
      .from(factEvents)
      .where(sql`${factEvents.factId} NOT IN (SELECT id FROM facts)`);
    expect(events).toBe(0);
    expect(await db().select().from(agentKeys).where(eq(agentKeys.agentId, "scout"))).toEqual([]);
    const found = await db().all(sql`SELECT rowid FROM facts_fts WHERE facts_fts MATCH 'budget'`);
    expect(found).toEqual([]);
    // Echo, in globex, is untouched.
    expect(await listAgents(db(), "globex")).toMatchObject([{ handle: "echo", facts: 1 }]);
    expect(await auditActions()).toEqual([
      ["key.create", "@scout's key “CI”"],
      ["agent.delete", "@scout (Scout) with 8 facts, 2 keys"],
    ]);
  });

  it("answers not_found for another workspace's agent", async () => {
    expect(await deleteAgent(db(), OLIVIA, "acme", "echo", 1)).toEqual({ status: "not_found" });
    expect(await listAgents(db(), "globex")).toHaveLength(1);
  });
});
