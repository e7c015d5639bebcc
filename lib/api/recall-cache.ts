/**
 * Recall answers this process has already worked out, kept per agent, channel,
 * asker, limit and budget, so an agent that recalls on every turn does not pay for
 * the same place and the same facts again and again.
 *
 * Answers to a question (`q`) are not kept: questions rarely repeat (the bench sees
 * under 1 % twice), ranking one reads only its own terms' postings
 * (recall-candidates.ts), and keeping them would push out of the budget the answers
 * that are reused turn after turn — and an answer ranked while the embeddings
 * provider was down would outlive its coming back.
 *
 * Why it can never serve a stale or wider answer: an answer depends only on the
 * agent's facts and on the rows its place is derived from (channels, channel
 * members, memberships). Triggers in the database bump `agents.memory_version` and
 * `workspaces.places_version` in the same statement as any change to those rows
 * (drizzle/0005), whoever makes it — this process, another one, the CLI. Every
 * request reads both versions together with its key (lib/api/auth.ts), and a kept
 * answer is used only when they are unchanged. Refusals are never kept, and the
 * key itself is still checked on every request, so revoking stays immediate.
 * Expiry changes no row — a fact simply stops holding when its last day ends — so
 * answers are kept per version *and* UTC day: every kept answer rolls over at
 * midnight UTC, and none serves a fact that expired since it was made.
 */
import type { Conn } from "@/db/client";
import { readConfig } from "@/lib/config";
import { utcDay } from "@/lib/memory/rules";
import { noteRecalled } from "@/lib/memory/usage";
import { VersionedCache, cacheFor } from "@/lib/memory/versioned-cache";
import type { RecallInput, RecallOutput } from "@/lib/validation/agent-api";
import { recallJsonForAgent } from "./agent-memory";
import type { AgentContext } from "./auth";
import { agentThreadFor } from "./agent-thread";

/**
 * A recall answer as the UTF-8 bytes of its JSON, made once for every request it
 * serves. Only bytes are kept, not the objects they were made from: a buffer is
 * one allocation outside the JavaScript heap, so thousands of kept answers add
 * nothing for the garbage collector to walk.
 */
export type RecallAnswer = Uint8Array<ArrayBuffer>;

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** The answer as objects again, for a caller that needs them (MCP's structured content). */
export function recallOutputOf(answer: RecallAnswer): RecallOutput {
  return JSON.parse(fromUtf8.decode(answer)) as RecallOutput;
}

/** An answer, and its facts' seqs (so a kept answer is counted as recalled without parsing it). */
export type KeptRecall = { answer: RecallAnswer; factSeqs: readonly number[] };

/** What an entry costs beyond its bytes: the map's slot, the entry and the version string, roughly. */
const ENTRY_OVERHEAD_BYTES = 512;

/** Kept answers by place and question; see versioned-cache.ts. */
export class RecallCache extends VersionedCache<KeptRecall> {
  keep(key: string, version: string, kept: KeptRecall): void {
    this.set(key, version, kept, kept.answer.byteLength + key.length * 2 + kept.factSeqs.length * 8 + ENTRY_OVERHEAD_BYTES);
  }
}

/** This process's kept answers for a database, within MNEMO_RECALL_CACHE_MB (read once; 0 keeps nothing). */
function recallCache(db: Conn): RecallCache {
  return cacheFor("mnemoRecallCache", db, () => new RecallCache(readConfig().MNEMO_RECALL_CACHE_MB * 2 ** 20));
}

/**
 * An answer made now, on whichever thread calls it (the request's, or the agent
 * thread's), and counted as a recall of its facts there: each thread has its own
 * counter (usage.ts), and the agent thread writes both. At a million facts an answer
 * to a question names ~24 facts no recent answer named, each a row to write (~5 µs),
 * and the serving thread no longer pays for them (BENCHMARKS.md).
 */
export async function freshAnswer(db: Conn, agent: AgentContext, input: RecallInput, today: string): Promise<KeptRecall> {
  const { json, factSeqs } = await recallJsonForAgent(db, agent, input, { today });
  noteRecalled(db, factSeqs);
  return { answer: utf8.encode(json), factSeqs };
}

/** What the agent recalls here: the kept answer while nothing it depends on has changed, else a fresh one. */
export async function recallAnswer(
  db: Conn,
  agent: AgentContext,
  input: RecallInput,
  cache: RecallCache = recallCache(db),
  /** The UTC day expiry is judged by; today by default (tests pass their own). */
  today: string = utcDay(),
): Promise<RecallAnswer> {
  if (input.q?.trim()) {
    // A question is ranked on the agent thread where the database has one (agent-thread.ts), and not kept.
    const onThisThread = async () => (await freshAnswer(db, agent, input, today)).answer;
    const thread = agentThreadFor(db);
    return thread ? thread.recall({ agent, input, today }, onThisThread) : onThisThread();
  }
  // Every other input that shapes the answer is in the key.
  const key = JSON.stringify([agent.agentId, input.channel, input.asker ?? "", input.limit ?? 0, input.budget ?? 0]);
  const version = `${agent.recallVersion}\n${today}`;
  const kept = cache.get(key, version);
  if (kept) {
    // Every answer served counts as a recall of its facts: a kept one here, a fresh one where it was made (freshAnswer).
    noteRecalled(db, kept.factSeqs);
    return kept.answer;
  }
  const fresh = await freshAnswer(db, agent, input, today);
  cache.keep(key, version, fresh);
  return fresh.answer;
}
