/**
 * The labelled recall-quality set (set/*.json), read and checked for shape, and
 * the places its questions are asked in, built the way derivePlace builds them.
 * Shared by the runner (run.ts) and the test that keeps the set from rotting.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { recallable, type ChannelKind, type FactScope, type Place } from "@/lib/memory/rules";

const SET_FOLDER = path.join(import.meta.dirname, "set");
/** One file per agent: its facts and the questions asked of it. */
export const AGENT_FILES = ["helpdesk", "forge", "pitch", "barista"] as const;

/** What a question tests; BENCHMARKS.md ("Recall quality") says what each means. */
export const KINDS = ["words", "paraphrase", "name", "number", "typo", "two-facts", "none"] as const;
export type Kind = (typeof KINDS)[number];
export const SPLITS = ["dev", "test"] as const;
export type Split = (typeof SPLITS)[number];

const iso = z.iso.datetime();

const world = z.strictObject({
  workspaces: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  people: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      workspace: z.string(),
      role: z.enum(["owner", "member"]),
    }),
  ),
  channels: z.array(
    z.strictObject({
      id: z.string(),
      workspace: z.string(),
      name: z.string(),
      kind: z.enum(["public", "private", "dm"]),
      people: z.array(z.string()),
    }),
  ),
});

const fact = z.strictObject({
  id: z.string(),
  scope: z.enum(["workspace", "channel", "person"]),
  /** The channel or person; absent for workspace facts. */
  ref: z.string().optional(),
  body: z.string(),
  pinned: z.boolean().optional(),
  /** The person who told it (a person's fact, as pinned ones are); absent when the agent kept it. */
  told: z.string().optional(),
  created: iso,
  updated: iso,
});

const question = z.strictObject({
  id: z.string(),
  kind: z.enum(KINDS),
  channel: z.string(),
  asker: z.string(),
  q: z.string(),
  /** The facts that answer it; empty when nothing does. */
  evidence: z.array(z.string()),
  split: z.enum(SPLITS),
});

const agentFile = z.strictObject({
  agent: z.strictObject({ id: z.string(), workspace: z.string(), handle: z.string(), name: z.string() }),
  facts: z.array(fact),
  questions: z.array(question),
});

export type World = z.infer<typeof world>;
export type SetAgent = z.infer<typeof agentFile>["agent"];
export type SetFact = z.infer<typeof fact> & { agent: string; workspace: string };
export type SetQuestion = z.infer<typeof question> & { agent: string; workspace: string };
export type QualitySet = World & { agents: SetAgent[]; facts: SetFact[]; questions: SetQuestion[] };

function readJson(name: string): unknown {
  return JSON.parse(readFileSync(path.join(SET_FOLDER, `${name}.json`), "utf8"));
}

/** The whole set, every file parsed (a malformed file throws with zod's message). */
export function loadSet(): QualitySet {
  const set: QualitySet = { ...world.parse(readJson("world")), agents: [], facts: [], questions: [] };
  for (const name of AGENT_FILES) {
    const file = agentFile.parse(readJson(name));
    const owner = { agent: file.agent.id, workspace: file.agent.workspace };
    set.agents.push(file.agent);
    set.facts.push(...file.facts.map((f) => ({ ...f, ...owner })));
    set.questions.push(...file.questions.map((q) => ({ ...q, ...owner })));
  }
  return set;
}

/** A fact as the rules read it. */
export function factScope(f: SetFact): FactScope {
  return { workspaceId: f.workspace, scope: f.scope, scopeRef: f.ref ?? "" };
}

/**
 * The place a question is asked in, as lib/memory/place.ts derives it from the
 * tables: a public channel's people are the asker alone, any other channel's are its members.
 */
export function placeOf(set: QualitySet, q: SetQuestion): Place {
  const channel = set.channels.find((c) => c.id === q.channel && c.workspace === q.workspace);
  if (!channel) throw new Error(`${q.id}: no channel ${q.channel} in ${q.workspace}`);
  const kind: ChannelKind = channel.kind;
  return { workspaceId: q.workspace, channelId: channel.id, kind, people: kind === "public" ? [q.asker] : [...channel.people].sort() };
}

/** The ids of the facts the rules allow in a question's place: its agent's, recallable there. */
export function allowedIds(set: QualitySet, q: SetQuestion): Set<string> {
  const place = placeOf(set, q);
  return new Set(set.facts.filter((f) => f.agent === q.agent && recallable(factScope(f), place)).map((f) => f.id));
}
