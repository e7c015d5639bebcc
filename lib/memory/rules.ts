/**
 * THE RULES of Mnemo: what an agent recalls where, what it writes where, and who
 * may see and change each fact, with the place always derived and agents unable
 * to undo people's curation; SECURITY.md says why each matters.
 *
 * Only the rules live here: the limits and the pure decisions. A fact's text
 * (fact-text.ts), its labels (labels.ts), its wire shape (wire.ts) and the prompt
 * section (prompt-section.ts) are built beside it.
 *
 * Everything here is pure — no database, no I/O, and no clock but the default of
 * `today` (utcDay), which every caller may pass instead — so it is tested
 * adversarially (rules.test.ts), and each rule a query applies has its SQL twin,
 * named after it, in rules-sql.ts. When you change a rule here, change its twin
 * too; rules-sql.test.ts compares the two.
 */

/** Facts given to one reply or session step at most. */
export const RECALL_LIMIT = 40;
/** The longest fact, in characters. */
export const MAX_FACT = 500;
/** Facts one agent keeps at most; past this it must forget before it remembers. */
export const MAX_FACTS = 2_000;
/** Days a forgotten fact can still be restored before it is purged. */
export const FORGET_GRACE_DAYS = 7;

export const SCOPES = ["workspace", "channel", "person"] as const;
export type Scope = (typeof SCOPES)[number];
export type ChannelKind = "public" | "private" | "dm";

/**
 * Where a recall or remember happens, always derived from Mnemo's own channel
 * table, never taken from a caller: one who could claim a solo DM with someone
 * would be handed that person's facts.
 */
export type Place = {
  workspaceId: string;
  channelId: string;
  kind: ChannelKind;
  /** The channel's people for a dm or private channel; just the asker for a public one. */
  people: string[];
};

/** The parts of a fact the rules read. */
export type FactScope = { workspaceId: string; scope: string; scopeRef: string };

/** A stored fact, as the store reads it. */
export type FactRow = FactScope & {
  id: string;
  agentId: string;
  scopeLabel: string | null;
  body: string;
  sourceKind: string;
  sourceRef: string | null;
  sourceLabel: string | null;
  sourceChannelId: string | null;
  createdBy: string;
  createdByKind: string;
  pinned: boolean;
  correctedAt?: string | null;
  /** The last day the fact holds (UTC, "YYYY-MM-DD"), or null for no end. */
  validUntil?: string | null;
  /** Set while the fact is a proposal waiting for a person: never recalled. */
  proposedAt?: string | null;
  /** Why a proposal waits (ProposalReason), null for a live fact. */
  proposalReason?: string | null;
  createdAt: string;
  updatedAt: string;
};

/** Who is looking: their id, whether they own the workspace, and which conversations they can read. */
export type Viewer = {
  workspaceId: string;
  id: string;
  owner: boolean;
  canRead: (channelId: string) => boolean;
};

/** A day in UTC, "YYYY-MM-DD": what expiry is judged by. Defaults to now; tests and requests pass their own. */
export function utcDay(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Expiry: a fact holds through its `validUntil` day (UTC) and is expired from the
 * next; no date, no end. Days compare as "YYYY-MM-DD" strings, as in SQL.
 * An expired fact is never recalled but still counts toward MAX_FACTS until forgotten.
 */
export function expired(fact: { validUntil?: string | null }, today: string): boolean {
  return fact.validUntil != null && fact.validUntil < today;
}

/** How far ahead a fact's end may be set: further than this is a guess, not a known date. */
export const MAX_VALID_YEARS = 5;

/** Why a new end date can't be set as of `today`, or null when it can: today or later, at most MAX_VALID_YEARS ahead. */
export function validUntilProblem(day: string, today: string): "past" | "too_far" | null {
  if (day < today) return "past";
  const [year, month, date] = today.split("-").map(Number);
  // 29 February rolls to 1 March in a common year: the same span of days, near enough.
  if (day > utcDay(new Date(Date.UTC(year + MAX_VALID_YEARS, month - 1, date)))) return "too_far";
  return null;
}

/** Whether an agent's writes of a scope wait for a person ("wait") or are kept at once ("keep"). */
export type WritePolicy = "wait" | "keep";
/** An agent's two settings: workspace facts wait by default, channel facts are kept by default. */
export type WritePolicies = { workspaceFacts: WritePolicy; channelFacts: WritePolicy };
/** Why a proposal waits: the agent's setting for the scope, or text that reads as an instruction. */
export type ProposalReason = "setting" | "instruction";

/**
 * Who waits: an agent's write is a proposal when its text reads as an instruction
 * (instruction-text.ts), whatever the scope and setting, or when the agent's setting
 * for the scope it was granted says "wait" (person facts have no setting). People's
 * writes never wait: they may change what they write, and the form warns them.
 */
export function proposalReasonFor(
  writer: "agent" | "user",
  scope: Scope,
  policies: WritePolicies,
  instructionLike: boolean,
): ProposalReason | null {
  if (writer !== "agent") return null;
  if (instructionLike) return "instruction";
  if (scope === "workspace" && policies.workspaceFacts === "wait") return "setting";
  if (scope === "channel" && policies.channelFacts === "wait") return "setting";
  return null;
}

/** The one person a DM is with, when it is with exactly one; otherwise null. */
export function soloPerson(place: Pick<Place, "kind" | "people">): string | null {
  return place.kind === "dm" && place.people.length === 1 ? place.people[0] : null;
}

/**
 * Recall follows the scope: workspace facts anywhere in their workspace, channel
 * facts only in that channel, person facts only in a solo DM with that person.
 * An unknown scope is never recalled; nothing crosses workspaces; an expired fact
 * (as of `today`, UTC) and a proposal (until a person approves it) are recalled nowhere.
 */
export function recallable(
  fact: FactScope & { validUntil?: string | null; proposedAt?: string | null },
  place: Place,
  today: string = utcDay(),
): boolean {
  if (fact.workspaceId !== place.workspaceId || expired(fact, today) || fact.proposedAt) return false;
  switch (fact.scope) {
    case "workspace":
      return true;
    case "channel":
      return fact.scopeRef === place.channelId;
    case "person":
      return soloPerson(place) === fact.scopeRef;
    default:
      return false;
  }
}

/**
 * Writing follows the conversation: the scope a fact is kept in from here.
 * `wanted` is what the writer asked for; it gets it only when the place allows.
 * `onlyFor` is the asker when the turn read something the whole workspace can't:
 * then the fact is theirs alone, wherever it is.
 */
export function scopeFor(
  place: Pick<Place, "channelId" | "kind" | "people">,
  wanted: Scope | null,
  onlyFor: string | null = null,
): { scope: Scope; ref: string } {
  // Any onlyFor, even a malformed empty one, keeps the fact private: an empty ref is refused by the database.
  if (onlyFor !== null) return { scope: "person", ref: onlyFor };
  if (wanted === "workspace" && place.kind === "public") return { scope: "workspace", ref: "" };
  const person = soloPerson(place);
  if (person && wanted !== "channel") return { scope: "person", ref: person };
  return { scope: "channel", ref: place.channelId };
}

/**
 * Seeing follows recall: workspace facts by every member, channel facts by whoever
 * can read the channel, person facts by that person alone. Being an owner grants
 * nothing here.
 */
export function visibleTo(fact: FactScope, viewer: Viewer): boolean {
  if (fact.workspaceId !== viewer.workspaceId) return false;
  switch (fact.scope) {
    case "workspace":
      return true;
    case "channel":
      return viewer.canRead(fact.scopeRef);
    case "person":
      return fact.scopeRef === viewer.id;
    default:
      return false;
  }
}

/** Changing: workspace facts by owners only; any other fact by whoever can see it. */
export function changeableBy(fact: FactScope, viewer: Viewer): boolean {
  if (fact.workspaceId !== viewer.workspaceId) return false;
  if (fact.scope === "workspace") return viewer.owner;
  return visibleTo(fact, viewer);
}

/**
 * What a person is shown of one fact (its card, history, export): a live fact as
 * visibleTo says; a proposal only to those who may decide it (changeableBy), so a
 * member never reads a workspace proposal that waits for an owner.
 */
export function shownTo(fact: FactScope & { proposedAt?: string | null }, viewer: Viewer): boolean {
  return fact.proposedAt ? changeableBy(fact, viewer) : visibleTo(fact, viewer);
}

/** Whether a writer asked for a scope and was given a narrower one. */
export function narrowed(wanted: Scope | null, granted: Scope): boolean {
  return wanted !== null && wanted !== granted;
}

/**
 * Whether an agent may forget a fact from where it is, so that it can't undo
 * people's curation: only facts it could recall here today (so not an expired one:
 * people renew or forget those) ("not_found" otherwise, the
 * same answer as a missing fact), never a pinned fact or one a person gave or
 * corrected, and a workspace fact it kept itself only from a public channel
 * ("forbidden").
 */
export function agentMayForget(
  fact: FactScope &
    Pick<FactRow, "agentId" | "pinned" | "createdByKind" | "sourceKind" | "validUntil"> & {
      forgottenAt?: string | null;
    },
  agentId: string,
  place: Place,
  today: string = utcDay(),
): "allowed" | "not_found" | "forbidden" {
  if (fact.agentId !== agentId || fact.forgottenAt || !recallable(fact, place, today)) return "not_found";
  if (fact.pinned) return "forbidden";
  if (fact.createdByKind !== "agent" || fact.sourceKind === "person") return "forbidden";
  if (fact.scope === "workspace" && place.kind !== "public") return "forbidden";
  return "allowed";
}
