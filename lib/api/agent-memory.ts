/**
 * What an agent can do with its memory — recall, remember, forget — once, for both
 * transports: the REST routes under app/api/v1 and the MCP tools in lib/api/mcp.ts
 * call these with input their shared zod schemas already validated. Each derives
 * the place from Mnemo's own tables (a caller names a channel, never its kind or
 * people), applies the rules through the data layer, and answers in the wire
 * shape; every refusal is an ApiError.
 */
import { eq } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { users } from "@/db/schema";
import { scopeLabelFor, sourceLabelFor } from "@/lib/memory/labels";
import { PlaceError, derivePlace, type PlaceInfo } from "@/lib/memory/place";
import { similarForAgent } from "@/lib/memory/look-alike-pairs";
import { MAX_FACTS, narrowed, scopeFor, utcDay, type Place } from "@/lib/memory/rules";
import { recallRanked } from "@/lib/memory/ranked-recall";
import { nudgeEmbedder } from "@/lib/embeddings/embedder";
import { meaningFor } from "@/lib/embeddings/meaning";
import { memoryJsonOpen, toMemory } from "@/lib/memory/wire";
import { VersionedCache, cacheFor } from "@/lib/memory/versioned-cache";
import { looksLikeInstruction } from "@/lib/memory/instruction-text";
import { writePolicies } from "@/lib/memory/proposals";
import { proposalReasonFor, type ProposalReason } from "@/lib/memory/rules";
import { replacedBy } from "@/lib/memory/replace";
import { agentForget, remember } from "@/lib/memory/writes";
import { displayName } from "@/lib/person-name";
import type {
  ForgetInput,
  RecallInput,
  RecallOutput,
  RememberInput,
  RememberOutput,
} from "@/lib/validation/agent-api";
import { agentThreadFor } from "./agent-thread";
import type { AgentContext } from "./auth";
import { apiError } from "./errors";

const PLACE_REFUSALS = {
  channel_not_found: "There is no such channel in this workspace. Use the id of a channel of your own workspace.",
  asker_not_member: "There is no such person in this workspace. Send the user id of the person you are answering, or no asker.",
  cannot_read: "The asker cannot read this channel, so nothing is recalled or kept for them here.",
} as const;

/** The place the agent is in, or the API's refusal: 404 for a channel or person it cannot know, 403 for an asker who can't read there. */
async function placeOf(db: Conn, agent: AgentContext, channel: string, asker: string | undefined): Promise<PlaceInfo> {
  try {
    return await derivePlace(db, agent.workspaceId, channel, asker ?? null);
  } catch (error) {
    if (!(error instanceof PlaceError)) throw error;
    throw apiError(error.code, PLACE_REFUSALS[error.code]);
  }
}

/** What a kept place costs, roughly: the key, the entry and its strings, and each of its people's ids. */
const BYTES_PER_PLACE = 512;
const BYTES_PER_PERSON = 48;

/**
 * The place of a recall, kept per agent, channel and asker under the versions a kept
 * answer trusts (recall-cache.ts): the rows a place is made of bump the workspace's
 * places version in the same statement (drizzle/0005). Refusals are never kept.
 */
async function recallPlace(db: Conn, agent: AgentContext, channel: string, asker: string | undefined): Promise<Place> {
  // Without the versions there is nothing to keep it under (a caller that read no key).
  if (!agent.recallVersion) return (await placeOf(db, agent, channel, asker)).place;
  const cache = cacheFor("mnemoRecallPlaces", db, () => new VersionedCache<Place>(4 * 2 ** 20));
  const key = `${agent.agentId}\n${channel}\n${asker ?? ""}`;
  const kept = cache.get(key, agent.recallVersion);
  if (kept) return kept;
  const { place } = await placeOf(db, agent, channel, asker);
  cache.set(key, agent.recallVersion, place, BYTES_PER_PLACE + place.people.length * BYTES_PER_PERSON);
  return place;
}

export type RecallForAgentOptions = {
  /** False ranks by words even when an embeddings provider is configured (the quality benchmark compares the two). */
  meaning?: boolean;
  /** The UTC day expiry is judged by ("YYYY-MM-DD"); today by default. Tests pass a clock of their own. */
  today?: string;
};

/** A recall answer as the JSON of RecallOutput, and its facts' seqs (what they are counted as recalled under, usage.ts). */
export type RecallJson = { json: string; factSeqs: number[] };

/**
 * The facts to recall here, ranked by the question when there is one (pinned, then
 * relevance, then recency), within `limit` and `budget`, each with its receipt; and
 * the prompt section they make — written straight as the answer's JSON: each fact's
 * wire JSON is kept with the fact's row (wire.ts), so an answer of 40 facts is joined
 * from strings, not built and stringified object by object.
 */
export async function recallJsonForAgent(
  db: Conn,
  agent: AgentContext,
  input: RecallInput,
  options: RecallForAgentOptions = {},
): Promise<RecallJson> {
  const place = await recallPlace(db, agent, input.channel, input.asker);
  const ranked = await recallRanked(db, agent.agentId, place, {
    question: input.q,
    limit: input.limit,
    budget: input.budget,
    version: agent.recallVersion,
    today: options.today,
    meaning: options.meaning === false ? undefined : meaningFor(db, agent.agentId, agent.workspaceId),
  });
  // RecallOutput's keys, in its order.
  const head = JSON.stringify({ place: { channel_id: place.channelId, kind: place.kind, people: place.people } });
  const facts = ranked.facts.map(({ fact, why }) => `${memoryJsonOpen(fact)},"why":${JSON.stringify(why)}}`);
  const json =
    `${head.slice(0, -1)},"facts":[${facts.join(",")}],"section":${JSON.stringify(ranked.section)}` +
    `,"ranking":${JSON.stringify(ranked.ranking)},"considered":${ranked.considered}` +
    `,"omitted":${ranked.considered - ranked.facts.length},"tokens":${ranked.tokens}}`;
  return { json, factSeqs: ranked.facts.map(({ fact }) => fact.seq) };
}

/** recallJsonForAgent's answer as objects (tests, the quality benchmark). */
export async function recallForAgent(
  db: Conn,
  agent: AgentContext,
  input: RecallInput,
  options: RecallForAgentOptions = {},
): Promise<RecallOutput> {
  return JSON.parse((await recallJsonForAgent(db, agent, input, options)).json) as RecallOutput;
}

/** The name a person fact's scope label shows: the asker's, or else the person's own. */
async function personName(db: Conn, personId: string, info: PlaceInfo): Promise<string> {
  if (info.asker?.id === personId) return info.asker.name;
  const [person] = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, personId))
    .limit(1);
  return person ? displayName(person) : personId;
}

/** The schema's defaults (db/schema.ts): workspace facts wait, channel facts are kept. */
const DEFAULT_POLICIES = { workspaceFacts: "wait", channelFacts: "keep" } as const;

/** A stored reason as the wire names it; a proposal always has one, and any other value still means it waits. */
function proposalReasonOf(value: string | null | undefined): ProposalReason {
  return value === "instruction" ? "instruction" : "setting";
}

/** `replacedText`: the old text of the fact `replaces` retired, for the MCP answer's words (the wire keeps only its id). */
export type RememberAnswer = { status: 200 | 201 | 202; body: RememberOutput; replacedText?: string };

/**
 * Keeps a fact where the conversation allows (scopeFor), cleaned, within the
 * limit, without duplicates or secrets. 202 when it waits for a person as a
 * proposal (proposalReasonFor: the agent's setting for the scope, or text that reads
 * as an instruction), 201 for a new fact, 200 when an existing
 * one was refreshed — and given the new `valid_until`, unless people curated it.
 *
 * On the app's database the work is done on the agent thread (agent-thread.ts), so
 * it holds up no other request; the embedder hears of a new fact here either way.
 */
export async function rememberForAgent(db: Conn, agent: AgentContext, input: RememberInput): Promise<RememberAnswer> {
  const onThisThread = () => rememberOnThisThread(db, agent, input);
  const thread = agentThreadFor(db);
  const answer = thread ? await thread.remember({ agent, input }, onThisThread) : await onThisThread();
  // The new fact is in fact_vectors_due (drizzle/0010); wake the embedder rather than wait for its next round.
  if (!answer.body.deduplicated) nudgeEmbedder();
  return answer;
}

/** rememberForAgent's work, on whichever thread calls it (the request's, or the agent thread's). */
export async function rememberOnThisThread(db: Conn, agent: AgentContext, input: RememberInput): Promise<RememberAnswer> {
  const info = await placeOf(db, agent, input.channel, input.asker);
  if (input.private && !info.asker) {
    throw apiError("invalid_request", "asker: private: true needs an asker, whose own fact it becomes.");
  }
  const wanted = input.scope ?? null;
  // `private` means the turn read something the whole workspace can't: the fact is the asker's alone.
  const onlyFor = input.private && info.asker ? info.asker.id : null;
  const granted = scopeFor(info.place, wanted, onlyFor);
  const name = granted.scope === "person" ? await personName(db, granted.ref, info) : null;
  const sourceKind = input.source?.kind ?? "message";
  // An agent deleted mid-request has no settings left: its defaults, so nothing is kept more freely.
  const policies = (await writePolicies(db, agent.workspaceId, agent.agentId)) ?? DEFAULT_POLICIES;
  const proposal = proposalReasonFor("agent", granted.scope, policies, looksLikeInstruction(input.fact).flagged);
  // One day for the rules of `replaces` and the answer that names a successor.
  const today = utcDay();

  const result = await remember(db, {
    agentId: agent.agentId,
    workspaceId: agent.workspaceId,
    body: input.fact,
    scope: granted.scope,
    scopeRef: granted.ref,
    scopeLabel: scopeLabelFor(granted.scope, info.channel, name),
    source: {
      kind: sourceKind,
      ref: input.source?.ref ?? null,
      label: sourceLabelFor(sourceKind, info.asker?.handle ?? null, info.channel),
      channelId: info.channel.id,
    },
    by: { kind: "agent", id: agent.agentId, name: agent.name },
    pinned: false,
    proposal,
    // Left out, a repeat leaves its twin's date alone (writes.ts twinValidUntil says when a date moves).
    validUntil: input.valid_until,
    replaces: input.replaces === undefined ? undefined : { id: input.replaces, place: info.place, today },
  });

  switch (result.status) {
    case "created":
    case "deduplicated":
      return {
        status: result.fact.proposedAt ? 202 : result.status === "created" ? 201 : 200,
        body: {
          memory: toMemory(result.fact),
          narrowed: narrowed(wanted, granted.scope),
          deduplicated: result.status === "deduplicated",
          proposed: !!result.fact.proposedAt,
          proposal_reason: result.fact.proposedAt ? proposalReasonOf(result.fact.proposalReason) : null,
          // Only what the agent may recall here: never a proposal, nor a person's fact outside their DM.
          similar: result.status === "created" ? similarForAgent(result.fact, result.similar, info.place, utcDay()) : [],
          ...(result.replaced ? { replaced: result.replaced.id } : {}),
        },
        replacedText: result.replaced?.body,
      };
    case "replace_refused":
      throw await forgetRefusal(db, agent, input.replaces ?? "", info.place, today, result.verdict, "replace");
    case "replace_widens":
      throw apiError(
        "invalid_request",
        "replaces: that fact is kept just for one person, so only another fact kept just for them can replace it. Remember this with scope \"person\" in their direct message, or forget the old fact instead.",
      );
    case "memory_full":
      throw apiError(
        "memory_full",
        `${agent.name} already keeps ${MAX_FACTS.toLocaleString("en-US")} facts, the most it may. Forget one it no longer needs, then remember this again.`,
      );
    case "invalid_fact":
      throw apiError("invalid_fact", "fact: the fact is empty. Send one short sentence of plain text.");
    case "looks_like_secret":
      throw apiError(
        "looks_like_secret",
        `fact: it looks like it contains ${result.what}. Mnemo never keeps secrets; remember the fact without the credential.`,
      );
    default:
      // Only writers that pass a rule of their own can be refused otherwise; agents pass none.
      throw new Error(`remember answered ${result.status} to an agent`);
  }
}

/**
 * Forgets a fact as agentMayForget allows: only one the agent could recall here,
 * never a pinned one or one a person gave. A missing fact, another agent's, and one not
 * recallable here get the same 404.
 */
export async function forgetForAgent(db: Conn, agent: AgentContext, input: ForgetInput): Promise<void> {
  const { place } = await placeOf(db, agent, input.channel, input.asker);
  const verdict = await agentForget(db, { kind: "agent", id: agent.agentId, name: agent.name }, input.id, place);
  if (verdict !== "forgotten") throw await forgetRefusal(db, agent, input.id, place, utcDay(), verdict, "forget");
}

/**
 * agentForget's two refusals, for forget and for `replaces` alike. An id that was replaced names the fact
 * that took its place, but only when the agent may recall that one here: otherwise the plain 404.
 */
async function forgetRefusal(
  db: Conn,
  agent: AgentContext,
  factId: string,
  place: Place,
  today: string,
  verdict: "not_found" | "forbidden",
  verb: "forget" | "replace",
) {
  const field = verb === "replace" ? "replaces: " : "";
  if (verdict === "not_found") {
    const newer = await replacedBy(db, agent.agentId, factId, place, today);
    if (newer) return apiError("not_found", `${field}That fact was replaced by ${newer}; ${verb} that one instead.`);
    return apiError("not_found", `${field}There is no such fact you can ${verb} here.`);
  }
  return apiError(
    "forbidden",
    `${field}You may not ${verb} this fact from here: people pinned or gave it, or it is a workspace fact and this is ` +
      "not a public channel. Tell the person; they can change it on the Memory page.",
  );
}
