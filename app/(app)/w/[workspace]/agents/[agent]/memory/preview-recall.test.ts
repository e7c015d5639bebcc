/**
 * The Memory page's recall preview against a real libSQL file seeded with the demo:
 * it ranks as the agent API does, says what it left out and why, answers a bad
 * question or budget with a message for that field, refuses places the person
 * cannot read, shows only facts that person may see, and is never counted as a recall.
 */
import { describe, expect, it } from "vitest";
import { count } from "drizzle-orm";
import type { PreviewResult } from "@/components/memory/recall-preview";
import { factUsage, facts } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { recallForAgent } from "@/lib/api/agent-memory";
import { readableChannels } from "@/lib/memory/channels";
import { dedupeKey } from "@/lib/memory/fact-text";
import { RECALL_LIMIT, visibleTo } from "@/lib/memory/rules";
import { factTerms } from "@/lib/memory/terms";
import { flushUsage } from "@/lib/memory/usage";
import { viewerFromTables } from "@/lib/testing/demo-db";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { previewRecall, type PreviewAsked } from "./preview-recall";

const t = tempDbForTests({ demo: true, each: true });

/** A preview of Scout's memory by a demo person in acme. */
async function preview(personId: string, asked: PreviewAsked): Promise<PreviewResult> {
  const channels = await readableChannels(t.db, { workspaceId: "acme", id: personId });
  return previewRecall(t.db, { workspaceId: "acme", personId, agentId: "scout" }, asked, channels);
}

async function ok(personId: string, asked: PreviewAsked) {
  const result = await preview(personId, asked);
  if (result.status !== "ok") throw new Error(`expected a preview, got ${JSON.stringify(result)}`);
  return result;
}

const bodies = (list: { body: string }[]) => list.map((fact) => fact.body);

describe("previewing a recall with a question and a budget", () => {
  it("ana in #support asking 'refund approval': the pinned fact, then refunds with both words matched", async () => {
    const result = await ok("ana", { place: "support", question: "refund approval" });
    expect(result.ranking).toBe("question (words only)");
    expect(result.placeLabel).toBe("#support");
    expect(bodies(result.facts)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.refunds, DEMO_FACTS.sso]);
    expect(result.facts[0].why).toMatchObject({ pinned: true, rank: 1, matched: [] });
    expect(result.facts[1].why).toMatchObject({ pinned: false, rank: 2 });
    expect(result.facts[1].why.matched).toEqual(expect.arrayContaining(["refund", "approval"]));
    expect(result.facts[1].why.score).toBeGreaterThan(0);
    expect(result.facts[2].why.score).toBeNull();
    expect(result.considered).toBe(3);
    expect(result.leftOut).toEqual([]);
    expect(result.section).toContain(DEMO_FACTS.refunds);
    expect(result.tokens).toBeGreaterThan(0);
  });

  it("shows what the agent API answers for the same place, question and budget", async () => {
    const scout = { agentId: "scout", workspaceId: "acme", handle: "scout", name: "Scout" } as Parameters<typeof recallForAgent>[1];
    for (const [question, budget] of [["refund approval", undefined], ["When do releases go out?", 40], [undefined, undefined]] as const) {
      const result = await ok("ana", { place: "support", question, budget: budget === undefined ? undefined : String(budget) });
      const api = await recallForAgent(t.db, scout, { channel: "support", asker: "ana", q: question, budget });
      expect(bodies(result.facts)).toEqual(bodies(api.facts));
      expect(result.facts.map((f) => f.why)).toEqual(api.facts.map((f) => f.why));
      expect([result.section, result.tokens, result.ranking, result.considered]).toEqual([api.section, api.tokens, api.ranking, api.considered]);
      expect(result.leftOut).toHaveLength(api.omitted);
    }
  });

  it("without a question: newest first, as recall has always been", async () => {
    const result = await ok("ana", { place: "support", question: "", budget: "" });
    expect(result.ranking).toBe("recency");
    expect(result.budget).toBeNull();
    expect(result.facts[0].body).toBe(DEMO_FACTS.releases);
    expect(result.facts).toHaveLength(3);
  });

  it("a tight budget leaves facts out whole, each for the budget, and the section fits", async () => {
    const full = await ok("ana", { place: "support", question: "refund approval" });
    const budget = full.tokens - 1;
    const tight = await ok("ana", { place: "support", question: "refund approval", budget: String(budget) });
    expect(tight.budget).toBe(budget);
    expect(tight.tokens).toBeLessThanOrEqual(budget);
    expect(tight.leftOut.length).toBeGreaterThan(0);
    expect(tight.leftOut.every((fact) => fact.reason === "budget")).toBe(true);
    expect([...bodies(tight.facts), ...bodies(tight.leftOut)].sort()).toEqual(bodies(full.facts).sort());
    // The receipt of a left-out fact still says what it matched.
    const refunds = [...tight.facts, ...tight.leftOut].find((fact) => fact.body === DEMO_FACTS.refunds);
    expect(refunds?.why.matched).toEqual(expect.arrayContaining(["refund", "approval"]));
  });

  it("facts past the limit of 40 are left out for the limit", async () => {
    const at = new Date(Date.UTC(2020, 0, 1)).toISOString();
    const rows = Array.from({ length: RECALL_LIMIT + 5 }, (_, i) => ({
      id: `fact_preview_${i}`,
      agentId: "scout",
      workspaceId: "acme",
      scope: "channel" as const,
      scopeRef: "support",
      scopeLabel: "#support",
      body: `Support note ${i}.`,
      bodyKey: dedupeKey(`Support note ${i}.`),
      sourceKind: "message" as const,
      sourceChannelId: "support",
      createdBy: "scout",
      createdByKind: "agent" as const,
      createdAt: at,
      updatedAt: at,
      // As every writer sets them: ranked recall reads the postings made from them.
      terms: factTerms(`Support note ${i}.`, "#support", null),
    }));
    await t.db.insert(facts).values(rows);
    const result = await ok("ana", { place: "support", question: "refund approval" });
    expect(result.facts).toHaveLength(RECALL_LIMIT);
    expect(result.considered).toBe(RECALL_LIMIT + 5 + 3);
    expect(result.leftOut).toHaveLength(8);
    expect(result.leftOut.every((fact) => fact.reason === "limit")).toBe(true);
    expect(bodies(result.facts).slice(0, 2)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.refunds]);

    // Without a question only the newest of each branch are read: what is listed is left out for the limit, never more.
    const newest = await ok("ana", { place: "support" });
    expect(newest.facts).toHaveLength(RECALL_LIMIT);
    expect(newest.considered).toBe(RECALL_LIMIT + 5 + 3);
    expect(newest.leftOut.length).toBeLessThanOrEqual(8);
    expect(newest.leftOut.every((fact) => fact.reason === "limit")).toBe(true);
  });
});

describe("bad input: a message for the field, nothing previewed", () => {
  it.each([
    [{ question: "x".repeat(2001) }, { question: "Keep the question within 2,000 characters." }],
    [{ budget: "0" }, { budget: "A budget is at least 1 token." }],
    [{ budget: "abc" }, { budget: "Write the budget as a whole number of tokens, such as 500." }],
    [{ budget: "12.5" }, { budget: "Write the budget as a whole number of tokens, such as 500." }],
    [{ budget: "-3" }, { budget: "Write the budget as a whole number of tokens, such as 500." }],
    [{ budget: "1000001" }, { budget: "A budget is at most 1,000,000 tokens." }],
    [
      { question: "y".repeat(5000), budget: "none" },
      { question: "Keep the question within 2,000 characters.", budget: "Write the budget as a whole number of tokens, such as 500." },
    ],
  ])("%o", async (asked, errors) => {
    expect(await preview("ana", { place: "support", ...asked })).toEqual({ status: "invalid", errors });
  });

  it("exactly 2,000 characters and a budget with spaces around it are fine", async () => {
    const result = await ok("ana", { place: "support", question: "refund ".repeat(285) + "appro", budget: " 500 " });
    expect(result.budget).toBe(500);
  });

  it("no place chosen: no preview", async () => {
    expect(await preview("ana", { question: "refund approval" })).toEqual({ status: "none" });
  });
});

describe("privacy: the preview is the person's, in places they can read", () => {
  it("refuses a place the person cannot read, another workspace's, or none at all", async () => {
    for (const place of ["leadership", "dm-max", "lobby", "dm-gina", "no-such-channel"]) {
      expect(await preview("ana", { place, question: "budget freeze" }), place).toEqual({ status: "refused" });
    }
  });

  it("every fact shown or left out is one the person may see, for every demo person and place", async () => {
    const all = new Map((await t.db.select().from(facts)).map((fact) => [fact.id, fact]));
    // A question that matches every demo fact; with and without a budget that leaves most of them out.
    const question = Object.values(DEMO_FACTS).join(" ");
    const channels = ["general", "support", "leadership", "dm-ana", "dm-max", "dm-gus", "group-max-ana", "lobby", "dm-gina"];
    let previewed = 0;
    for (const person of ["olivia", "max", "ana", "gus", "gina"]) {
      const viewer = await viewerFromTables(t.db, "acme", person);
      for (const place of channels) {
        for (const budget of [undefined, "20"]) {
          const result = await preview(person, { place, question, budget });
          if (!viewer || result.status === "refused") {
            expect(viewer?.canRead(place) ?? false, `${person} is refused only where they cannot read: ${place}`).toBe(false);
            continue;
          }
          if (result.status !== "ok") throw new Error(JSON.stringify(result));
          previewed += 1;
          for (const fact of [...result.facts, ...result.leftOut]) {
            expect(visibleTo(all.get(fact.id)!, viewer), `${person} in ${place}: ${fact.body}`).toBe(true);
          }
          if (place !== "leadership") expect(bodies([...result.facts, ...result.leftOut])).not.toContain(DEMO_FACTS.budget);
        }
      }
    }
    expect(previewed).toBeGreaterThan(20);
  });

  it("is not a recall: nothing is counted, however often it is previewed", async () => {
    for (let i = 0; i < 3; i += 1) {
      await ok("ana", { place: "support", question: "refund approval" });
      await ok("ana", { place: "dm-ana" });
    }
    await flushUsage();
    const [usage] = await t.db.select({ n: count() }).from(factUsage);
    expect(usage.n).toBe(0);
  });
});
