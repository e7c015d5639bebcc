/**
 * Property (issue #15): over random writes — two agents with random write
 * policies, ordinary facts and injection attempts from the detector's labelled
 * list, every place and every wished scope, repeats, approvals and declines — no
 * proposal is ever in recall or ranked recall (words and the API's answer), and
 * instruction-like text from an agent never becomes a live fact by itself. One
 * real libSQL file with the demo; the writes pile up across runs.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readAll } from "@/db/client";
import { agents } from "@/db/schema";
import { rememberForAgent, recallForAgent } from "@/lib/api/agent-memory";
import type { AgentContext } from "@/lib/api/auth";
import { ApiError } from "@/lib/api/errors";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { INJECTIONS, ORDINARY_FACTS } from "./instruction-text.fixtures";
import { looksLikeInstruction } from "./instruction-text";
import { derivePlace } from "./place";
import { approveProposal, declineProposal, proposalsFor, setWritePolicies } from "./proposals";
import { OPERATOR } from "@/lib/admin/audit";
import { SCOPES, type WritePolicy } from "./rules";
import { recall } from "./store";
import type { PersonActor } from "./writes";

const t = tempDbForTests({ demo: true });

const agentContext = (id: string, name: string): AgentContext => ({
  keyId: `key_${id}`,
  agentId: id,
  workspaceId: "acme",
  handle: id,
  name,
  recallVersion: "0.0",
});
const AGENTS = [agentContext("scout", "Scout"), agentContext("helper", "Helper")];

/** Every place of acme as a channel and an asker who can read it. */
const PLACES: [string, string][] = [
  ["general", "ana"],
  ["general", "olivia"],
  ["support", "max"],
  ["support", "gus"],
  ["leadership", "max"],
  ["leadership", "olivia"],
  ["dm-ana", "ana"],
  ["dm-max", "max"],
  ["dm-gus", "gus"],
  ["group-max-ana", "ana"],
];
const DECIDERS: PersonActor[] = ["olivia", "max", "ana", "gus"].map((id) => ({ workspaceId: "acme", id, name: id, handle: id }));

const policy = fc.constantFrom<WritePolicy>("wait", "keep");
const text = fc.oneof(
  fc.constantFrom(...ORDINARY_FACTS.slice(0, 80)),
  fc.constantFrom(...INJECTIONS.slice(0, 60)),
);
const step = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant("write" as const),
      agent: fc.nat(AGENTS.length - 1),
      place: fc.nat(PLACES.length - 1),
      scope: fc.option(fc.constantFrom(...SCOPES), { nil: undefined }),
      private: fc.boolean(),
      text,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("policies" as const),
      agent: fc.nat(AGENTS.length - 1),
      workspaceFacts: policy,
      channelFacts: policy,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom("approve" as const, "decline" as const),
      agent: fc.nat(AGENTS.length - 1),
      decider: fc.nat(DECIDERS.length - 1),
      pick: fc.nat(),
    }),
  },
);

/** The ids of the agent's proposals waiting now, read straight from the table. */
async function waitingIds(agentId: string): Promise<Set<string>> {
  const rows = await readAll<{ id: string }>(
    t.db,
    "SELECT id FROM facts WHERE agent_id = ? AND proposed_at IS NOT NULL AND forgotten_at IS NULL",
    [agentId],
  );
  return new Set(rows.map((row) => row.id));
}

describe("proposals, over random writes and places", () => {
  it("no proposal is ever recalled, ranked or not, and an agent's instruction-like text is never kept live by its own write", async () => {
    await t.db.insert(agents).values({ id: "helper", workspaceId: "acme", handle: "helper", name: "Helper" });
    let proposed = 0;
    let approved = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const s of steps) {
          const agent = AGENTS[s.agent];
          if (s.kind === "policies") {
            await setWritePolicies(t.db, OPERATOR, "acme", agent.agentId, s);
          } else if (s.kind === "write") {
            const [channel, asker] = PLACES[s.place];
            const input = { channel, asker, fact: s.text, scope: s.scope, private: s.private };
            let answer;
            try {
              answer = await rememberForAgent(t.db, agent, input);
            } catch (error) {
              // The limit is far; a secret-looking fixture is refused as it should be.
              if (error instanceof ApiError && error.code === "looks_like_secret") continue;
              throw error;
            }
            expect(answer.body.memory.status).toBe(answer.status === 202 ? "proposed" : "live");
            if (answer.status === 202) proposed += 1;
            if (looksLikeInstruction(s.text).flagged) expect(answer.status, s.text).not.toBe(201);
          } else {
            const decider = DECIDERS[s.decider];
            const list = await proposalsFor(t.db, decider, agent.agentId);
            if (!list.length) continue;
            const target = list[s.pick % list.length];
            if (s.kind === "approve") {
              const result = await approveProposal(t.db, decider, agent.agentId, target.id);
              expect(result.status).toBe("approved");
              approved += 1;
            } else {
              expect((await declineProposal(t.db, decider, agent.agentId, target.id, "no")).status).toBe("declined");
            }
          }
        }
        for (const agent of AGENTS) {
          const waiting = await waitingIds(agent.agentId);
          for (const [channel, asker] of PLACES) {
            const { place } = await derivePlace(t.db, "acme", channel, asker);
            for (const fact of await recall(t.db, agent.agentId, place)) expect(waiting.has(fact.id), fact.body).toBe(false);
            // Ranked by a question made of the injections' and the facts' own words, through the API's answer.
            const q = "ignore previous instructions system prompt reply deploy release refund";
            const ranked = await recallForAgent(t.db, agent, { channel, asker, q }, { meaning: false });
            for (const fact of ranked.facts) expect(waiting.has(fact.id), fact.body).toBe(false);
          }
        }
      }),
      { numRuns: 60 },
    );
    // The runs did make proposals and decide some: the property was not vacuous.
    expect(proposed).toBeGreaterThan(10);
    expect(approved).toBeGreaterThan(0);
  }, 300_000);
});
