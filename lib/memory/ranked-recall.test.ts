/**
 * Ranked recall on a real database: the demo's questions, and the property that
 * ranking only ever reorders and trims what the rules allow in the place.
 */
import { describe, expect, it } from "vitest";
import { DEMO_FACTS } from "@/db/seed";
import { flatRanked } from "@/lib/testing/flat-ranked";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { derivePlace } from "./place";
import { recallRanked } from "./ranked-recall";

const t = tempDbForTests({ demo: true });

async function ask(channel: string, asker: string | null, question?: string, extra: { limit?: number; budget?: number } = {}) {
  const { place } = await derivePlace(t.db, "acme", channel, asker);
  return flatRanked(await recallRanked(t.db, "scout", place, { question, explain: true, ...extra }));
}

describe("the demo, asked questions", () => {
  it("in support, 'refund approval' puts the refunds rule first after the pinned workspace fact", async () => {
    const answer = await ask("support", "ana", "refund approval");
    expect(answer.ranking).toBe("question (words only)");
    expect(answer.facts.map((fact) => fact.body).slice(0, 2)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.refunds]);
    expect(answer.facts[0].why).toMatchObject({ pinned: true, rank: 1, score: null, matched: [] });
    expect(answer.facts[1].why).toMatchObject({ pinned: false, rank: 2, matched: ["refund", "approval"] });
    expect(answer.facts[1].why.score).toBeGreaterThan(0);
  });

  it("'When do releases go out?' finds 'Releases go out on Thursdays.'", async () => {
    const answer = await ask("general", "max", "When do releases go out?");
    expect(answer.facts[0].body).toBe(DEMO_FACTS.releases);
    expect(answer.facts[0].why.matched).toContain("releases");
  });

  it("in dm-ana, 'what language should I answer in' finds Ana's language by another word for 'answer'", async () => {
    const answer = await ask("dm-ana", "ana", "what language should I answer in");
    const [first] = answer.facts.filter((fact) => !fact.pinned);
    expect(first.body).toBe(DEMO_FACTS.anaPerson);
    expect(first.why.matched).toContain("answer");
  });

  it("never recalls leadership's facts outside it, whatever is asked", async () => {
    for (const channel of ["general", "support", "dm-ana"]) {
      const answer = await ask(channel, channel === "dm-ana" ? "ana" : "max", "Q3 budget freeze October");
      expect(answer.facts.map((fact) => fact.body)).not.toContain(DEMO_FACTS.budget);
    }
    const inside = await ask("leadership", "olivia", "Q3 budget freeze October");
    expect(inside.facts.map((fact) => fact.body).slice(0, 2)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.budget]);
  });

  it("says how many facts it chose from and how many it left out", async () => {
    const answer = await ask("support", "ana", "refund approval", { limit: 1 });
    expect(answer.considered).toBe(3);
    expect(answer.facts).toHaveLength(1);
    expect(answer.leftOut.map((fact) => fact.reason)).toEqual(["limit", "limit"]);
  });

  it("fits the section to a budget, dropping whole facts", async () => {
    const whole = await ask("support", "ana", "refund approval");
    const tight = await ask("support", "ana", "refund approval", { budget: whole.tokens - 1 });
    expect(tight.facts.length).toBe(whole.facts.length - 1);
    expect(tight.tokens).toBeLessThanOrEqual(whole.tokens - 1);
    expect(tight.leftOut.some((fact) => fact.reason === "budget")).toBe(true);
    const none = await ask("support", "ana", "refund approval", { budget: 5 });
    expect(none).toMatchObject({ facts: [], section: null, tokens: 0 });
  });

  it("without a question keeps today's order and says so", async () => {
    const answer = await ask("support", "ana");
    expect(answer.ranking).toBe("recency");
    expect(answer.facts.map((fact) => fact.body)).toEqual([DEMO_FACTS.releases, DEMO_FACTS.sso, DEMO_FACTS.refunds]);
  });
});

describe("expiry, on the day given", () => {
  it("a fact until yesterday is left out — pinned or not, by words or recency, from kept word indexes too — and one until today is in", async () => {
    const until = (day: string | null, body: string) =>
      t.db.$client.execute({ sql: "UPDATE facts SET valid_until = ? WHERE body = ?", args: [day, body] });
    await until("2026-06-15", DEMO_FACTS.releases); // pinned
    await until("2026-06-14", DEMO_FACTS.refunds);
    try {
      const { place } = await derivePlace(t.db, "acme", "support", "ana");
      for (const question of [undefined, "refund approval: when do releases go out?"]) {
        // "kept": word indexes kept under one memory version, which expiry does not change.
        for (const version of [undefined, "kept"]) {
          const on = async (today: string) => {
            const answer = flatRanked(await recallRanked(t.db, "scout", place, { question, version, today, explain: true }));
            const left = answer.leftOut.map((fact) => fact.body);
            return { bodies: [...answer.facts.map((fact) => fact.body), ...left], considered: answer.considered };
          };
          const [d14, d15, d16] = [await on("2026-06-14"), await on("2026-06-15"), await on("2026-06-16")];
          expect(d14.bodies).toEqual(expect.arrayContaining([DEMO_FACTS.releases, DEMO_FACTS.refunds]));
          expect(d15.bodies).toContain(DEMO_FACTS.releases);
          expect(d15.bodies).not.toContain(DEMO_FACTS.refunds);
          expect(d16.bodies).not.toContain(DEMO_FACTS.releases);
          expect(d16.bodies).not.toContain(DEMO_FACTS.refunds);
          expect([d15.considered, d16.considered]).toEqual([d14.considered - 1, d14.considered - 2]);
        }
      }
    } finally {
      await until(null, DEMO_FACTS.releases);
      await until(null, DEMO_FACTS.refunds);
    }
  });
});

