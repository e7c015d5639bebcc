/**
 * Hostile text through the real writers, on a real libSQL file with the demo
 * workspace: an agent remembering (the service REST and MCP both run), a person
 * adding a fact from the Memory page, a person correcting one, and an owner
 * importing a file. Credentials in disguise are refused with the secret error and
 * nothing is written; invisible-only text gets the very answer whitespace-only
 * text gets; bidi controls and lone surrogates never reach the database or the
 * prompt section.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { factEvents, facts } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { recallForAgent, rememberForAgent } from "@/lib/api/agent-memory";
import type { AgentContext } from "@/lib/api/auth";
import { ApiError } from "@/lib/api/errors";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { planImport } from "./import";
import { DISGUISED_CREDENTIALS } from "./secrets.fixtures";
import { tellFact } from "./tell";
import { correctFact, type PersonActor } from "./writes";

const SCOUT: AgentContext = { keyId: "key_demo_scout", agentId: "scout", workspaceId: "acme", handle: "scout", name: "Scout", recallVersion: "0.0" };
const SCOUT_AGENT = { id: "scout", workspaceId: "acme" };
const ANA: PersonActor = { workspaceId: "acme", id: "ana", name: "Ana Alves", handle: "ana" };
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const t = tempDbForTests({ demo: true, each: true });

async function snapshot() {
  return {
    facts: await t.db.select().from(facts).orderBy(facts.seq),
    events: await t.db.select().from(factEvents).orderBy(factEvents.id),
  };
}

/** What the API answers an agent remembering `fact` in Ana's DM: the refusal, or the kept body. */
async function agentAnswer(fact: string) {
  try {
    const { body } = await rememberForAgent(t.db, SCOUT, { channel: "dm-ana", asker: "ana", fact });
    return { kept: body.memory.body };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
}

async function anasFact() {
  const [row] = await t.db.select().from(facts).where(eq(facts.body, DEMO_FACTS.anaPerson));
  return row;
}

describe("credentials in disguise", () => {
  it("are refused with the secret error by agents, people adding, people correcting and imports, and none is stored", async () => {
    const before = await snapshot();
    const fact = await anasFact();
    for (const text of DISGUISED_CREDENTIALS) {
      expect(await agentAnswer(text), text).toEqual({
        status: 422,
        code: "looks_like_secret",
        message: expect.stringContaining("Mnemo never keeps secrets"),
      });
      expect(await tellFact(t.db, ANA, SCOUT_AGENT, { text, scope: "person" }), text).toMatchObject({ status: "looks_like_secret" });
      expect(await correctFact(t.db, ANA, "scout", fact.id, fact.version, text), text).toMatchObject({ status: "looks_like_secret" });
    }
    const plan = await planImport(t.db, "scout", DISGUISED_CREDENTIALS.map((body) => ({ scope: "workspace", body })));
    expect(plan.add).toEqual([]);
    expect(plan.refused.map((problem) => problem.reason)).toEqual(
      DISGUISED_CREDENTIALS.map(() => expect.stringMatching(/^it looks like .+; Mnemo never keeps credentials$/)),
    );
    expect(await snapshot()).toEqual(before);
  });
});


describe("text that shows nothing", () => {
  const INVISIBLE_ONLY = [
    "\u200b\u200b\u200b",
    "\u202e",
    "\ufeff \u00ad \u2060",
    "\u200d\u200c\u2066\u2069",
    "\u{e0041}\u{e0042}\u{e0043}",
    "\ud800",
    "\u3164\u2800",
  ];

  it("gets the answer whitespace-only text gets, from agents and people, and writes nothing", async () => {
    const before = await snapshot();
    const blankAnswer = await agentAnswer("   \n\t ");
    expect(blankAnswer).toMatchObject({ status: 422, code: "invalid_fact" });
    const blankTold = await tellFact(t.db, ANA, SCOUT_AGENT, { text: "  ", scope: "person" });
    expect(blankTold).toEqual({ status: "invalid_fact" });
    const fact = await anasFact();
    for (const text of INVISIBLE_ONLY) {
      expect(await agentAnswer(text), JSON.stringify(text)).toEqual(blankAnswer);
      expect(await tellFact(t.db, ANA, SCOUT_AGENT, { text, scope: "person" }), JSON.stringify(text)).toEqual(blankTold);
      expect(await correctFact(t.db, ANA, "scout", fact.id, fact.version, text)).toEqual({ status: "invalid_fact" });
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("bidi controls and lone surrogates", () => {
  const HOSTILE = "Refunds \u202eover $500\u202c need \u2067approval\u2069\ud800.";
  const CLEAN = "Refunds over $500 need approval.";

  it("are removed before an agent's fact is kept, and never reach the prompt section", async () => {
    expect(await agentAnswer(HOSTILE)).toEqual({ kept: CLEAN });
    const [row] = await t.db.select().from(facts).where(eq(facts.body, CLEAN));
    expect(row.scope).toBe("person");
    const { section } = await recallForAgent(t.db, SCOUT, { channel: "dm-ana", asker: "ana" });
    expect(section).toContain(`] ${CLEAN} (this person`);
    expect(section).not.toMatch(BIDI);
  });

  it("are removed before a person's fact is kept or corrected", async () => {
    expect(await tellFact(t.db, ANA, SCOUT_AGENT, { text: HOSTILE, scope: "person" })).toMatchObject({
      status: "created",
      fact: { body: CLEAN },
    });
    const fact = await anasFact();
    expect(await correctFact(t.db, ANA, "scout", fact.id, fact.version, `Ana prefers \u202eEnglish\u202c now.`)).toMatchObject({
      status: "corrected",
      fact: { body: "Ana prefers English now." },
    });
  });

  it("are left out of the prompt section even when a fact kept before this cleaning still holds them", async () => {
    await t.db.update(facts).set({ body: `Releases go out on \u202eThursdays\u202c.\u2066` }).where(eq(facts.body, DEMO_FACTS.releases));
    const { facts: recalled, section } = await recallForAgent(t.db, SCOUT, { channel: "dm-ana", asker: "ana" });
    expect(recalled.map((fact) => fact.body)).toContain(`Releases go out on \u202eThursdays\u202c.\u2066`);
    expect(section).toContain(`] ${DEMO_FACTS.releases} (workspace`);
    expect(section).not.toMatch(BIDI);
  });
});
