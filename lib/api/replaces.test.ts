/**
 * `replaces` through the agent API's service, as REST and MCP run it (issue #15),
 * on a real libSQL file with the demo: a superseded fact is gone from recall with
 * and without a question on the very next request (kept answers included), the
 * answer says what was replaced, refusals are forget's own 404 and 403, and the old
 * id answers with its successor only where the agent may recall that one.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { factEvents, facts } from "@/db/schema";
import { DEMO_FACTS } from "@/db/seed";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { forgetForAgent, recallForAgent, rememberForAgent } from "./agent-memory";
import { generateAgentKey, hashAgentKey } from "./agent-keys";
import { authenticateAgent, type AgentContext } from "./auth";
import { ApiError } from "./errors";
import { handleMcpRequest, replacedInWords } from "./mcp";
import { RecallCache, recallAnswer, recallOutputOf } from "./recall-cache";

const t = tempDbForTests({ demo: true, each: true });
const KEYS = { scout: generateAgentKey(), echo: generateAgentKey() };
const NEW_REFUNDS = "Refunds over $300 need a manager's approval.";

/** The agent as a request with its key finds it: with the recall version of this moment, as every request reads it. */
async function agentNow(agent: keyof typeof KEYS): Promise<AgentContext> {
  const { rows } = await t.db.$client.execute({ sql: "SELECT 1 FROM agent_keys WHERE id = ?", args: [`key_${agent}_test`] });
  if (!rows.length) {
    await t.db.$client.execute({
      sql: "INSERT INTO agent_keys (id, agent_id, name, prefix, hash) VALUES (?, ?, 'Test', ?, ?)",
      args: [`key_${agent}_test`, agent, KEYS[agent].slice(0, 10), hashAgentKey(KEYS[agent])],
    });
  }
  return authenticateAgent(t.db, new Request("http://mnemo.test/", { headers: { authorization: `Bearer ${KEYS[agent]}` } }));
}

async function idOf(body: string): Promise<string> {
  const [row] = await t.db.select({ id: facts.id }).from(facts).where(eq(facts.body, body));
  if (!row) throw new Error(`no fact "${body}"`);
  return row.id;
}

async function refusal(action: () => Promise<unknown>): Promise<{ status: number; code: string; message: string }> {
  try {
    await action();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal, but it succeeded");
}

describe("remember with replaces", () => {
  it("a superseded fact is gone from recall with and without a question on the next request, kept answers too", async () => {
    const cache = new RecallCache(8 * 2 ** 20);
    const recalled = async (q?: string) =>
      recallOutputOf(await recallAnswer(t.db, await agentNow("scout"), { channel: "support", asker: "ana", q }, cache)).facts.map(
        (fact) => fact.body,
      );
    const question = "Who approves a refund over $300 or $500?";
    expect(await recalled()).toContain(DEMO_FACTS.refunds);
    expect(await recalled(question)).toContain(DEMO_FACTS.refunds);
    // Asked twice: the second answer without a question is the kept one.
    expect(await recalled()).toContain(DEMO_FACTS.refunds);

    const oldId = await idOf(DEMO_FACTS.refunds);
    const answer = await rememberForAgent(t.db, await agentNow("scout"), {
      channel: "support",
      asker: "ana",
      fact: NEW_REFUNDS,
      replaces: oldId,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ memory: { body: NEW_REFUNDS }, deduplicated: false, replaced: oldId });
    expect(answer.replacedText).toBe(DEMO_FACTS.refunds);

    for (const q of [undefined, question]) {
      const bodies = await recalled(q);
      expect(bodies, `q=${q}`).toContain(NEW_REFUNDS);
      expect(bodies, `q=${q}`).not.toContain(DEMO_FACTS.refunds);
    }
    // Without `replaces`, no `replaced` in the answer.
    const plain = await rememberForAgent(t.db, await agentNow("scout"), { channel: "support", asker: "ana", fact: "Refund forms live in the wiki." });
    expect(plain.body).not.toHaveProperty("replaced");
  });

  it("refuses with forget's own status and code, in the fixed order, and writes nothing", async () => {
    const scout = await agentNow("scout");
    const echo = await agentNow("echo");
    const before = { facts: await t.db.select().from(facts), events: await t.db.select().from(factEvents) };
    const cases: [AgentContext, string, string, string][] = [
      [scout, "general", "ana", DEMO_FACTS.releases], // pinned, told by Olivia: 403
      [scout, "dm-ana", "ana", DEMO_FACTS.sso], // a workspace fact from a DM: 403
      [scout, "general", "ana", DEMO_FACTS.budget], // #leadership's: 404
      [echo, "lobby", "gina", DEMO_FACTS.refunds], // another workspace's agent: 404
      [scout, "general", "ana", DEMO_FACTS.globex], // Echo's: 404
    ];
    for (const [agent, channel, asker, body] of cases) {
      const id = await idOf(body);
      const replaced = await refusal(() => rememberForAgent(t.db, agent, { channel, asker, fact: "Something changed.", replaces: id }));
      const forgot = await refusal(() => forgetForAgent(t.db, agent, { id, channel, asker }));
      expect([replaced.status, replaced.code], `${agent.agentId} replaces "${body}" in #${channel}`).toEqual([forgot.status, forgot.code]);
      expect(replaced.message).toMatch(/^replaces: /);
    }
    // Parse before load: bad text is a 422 even when the fact it names is not there.
    expect(
      await refusal(() => rememberForAgent(t.db, scout, { channel: "general", asker: "ana", fact: "   ", replaces: "fact_missing" })),
    ).toMatchObject({ status: 422, code: "invalid_fact" });
    expect({ facts: await t.db.select().from(facts), events: await t.db.select().from(factEvents) }).toEqual(before);
  });

  it("the old id answers 404 naming its successor where the agent may recall it, and nothing more elsewhere", async () => {
    const oldId = await idOf(DEMO_FACTS.refunds);
    const kept = await rememberForAgent(t.db, await agentNow("scout"), {
      channel: "support",
      asker: "ana",
      fact: NEW_REFUNDS,
      replaces: oldId,
    });
    const newId = kept.body.memory.id;
    const scout = await agentNow("scout");

    const forget = await refusal(() => forgetForAgent(t.db, scout, { id: oldId, channel: "support", asker: "ana" }));
    expect(forget).toEqual({ status: 404, code: "not_found", message: `That fact was replaced by ${newId}; forget that one instead.` });
    const again = await refusal(() =>
      rememberForAgent(t.db, scout, { channel: "support", asker: "ana", fact: "Refunds need nobody's approval.", replaces: oldId }),
    );
    expect(again).toMatchObject({ status: 404, message: `replaces: That fact was replaced by ${newId}; replace that one instead.` });
    // The very same request again (an agent retrying after a lost answer): the fact it kept, as any repeat, not a 404.
    const retry = await rememberForAgent(t.db, scout, { channel: "support", asker: "ana", fact: NEW_REFUNDS, replaces: oldId });
    expect(retry).toMatchObject({ status: 200, body: { deduplicated: true, replaced: oldId, memory: { id: newId } } });

    // In #general the #support fact is not recallable, and Echo is another workspace's: the plain answer.
    const elsewhere = await refusal(() => forgetForAgent(t.db, scout, { id: oldId, channel: "general", asker: "ana" }));
    expect(elsewhere.message).toBe("There is no such fact you can forget here.");
    const echoAgent = await agentNow("echo");
    const echo = await refusal(() => forgetForAgent(t.db, echoAgent, { id: oldId, channel: "lobby", asker: "gina" }));
    expect(echo.message).toBe("There is no such fact you can forget here.");
    expect(JSON.stringify([elsewhere, echo])).not.toContain(newId);
  });

  it("a replacement that must wait answers 202 naming the fact it will replace, which stays recalled until approved", async () => {
    const sso = await idOf(DEMO_FACTS.sso);
    // Scout's workspace facts wait for an owner (the default): the replacement is a proposal.
    const answer = await rememberForAgent(t.db, await agentNow("scout"), {
      channel: "general",
      asker: "ana",
      fact: "Only the Enterprise plan includes SSO.",
      scope: "workspace",
      replaces: sso,
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ proposed: true, replaced: sso });
    expect(replacedInWords(answer)).toBe(
      `When a person approves ${answer.body.memory.id}, it replaces ${sso} ("${DEMO_FACTS.sso}"); until then the old fact stays.`,
    );
    const recalled = await recallForAgent(t.db, await agentNow("scout"), { channel: "general", asker: "ana" });
    expect(recalled.facts.map((fact) => fact.id)).toContain(sso);
  });

  it("MCP remember takes replaces and says in words what it replaced", async () => {
    const scout = await agentNow("scout");
    const oldId = await idOf(DEMO_FACTS.refunds);
    const response = await handleMcpRequest(
      t.db,
      scout,
      new Request("http://mnemo.test/api/mcp", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "remember", arguments: { channel: "support", asker: "ana", fact: NEW_REFUNDS, replaces: oldId } },
        }),
      }),
    );
    const { result } = (await response.json()) as {
      result: { isError?: boolean; content: { text: string }[]; structuredContent: { memory: { id: string }; replaced: string } };
    };
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.replaced).toBe(oldId);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    expect(result.content[1].text).toBe(
      `Replaced ${oldId} ("${DEMO_FACTS.refunds}") with ${result.structuredContent.memory.id} ("${NEW_REFUNDS}"): ` +
        "the old fact is retired and will not be recalled again.",
    );
  });
});
