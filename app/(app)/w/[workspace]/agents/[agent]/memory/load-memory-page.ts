/**
 * Everything the Memory page shows, read for one member in one go: the groups of
 * facts they may see (one page each), the recently forgotten, the quota, and the
 * recall preview. Each fact leaves here as a FactView — what the person may see
 * of it and whether they may change it — never as a row. The Inbox holds only
 * the proposals this person may decide (proposalsFor applies the rule in SQL).
 */
import { getDb } from "@/db";
import type { FactView } from "@/components/memory/fact-card";
import type { FactGroupProps } from "@/components/memory/fact-group";
import type { ExpiredView } from "@/components/memory/expired-section";
import type { ForgottenView } from "@/components/memory/forgotten-list";
import type { ProposalView } from "@/components/memory/inbox";
import type { PreviewResult } from "@/components/memory/recall-preview";
import type { Agent } from "@/lib/agents";
import type { Member } from "@/lib/auth/session";
import { requestTime } from "@/lib/ids";
import { readableChannels, type ReadableChannel } from "@/lib/memory/channels";
import { scopeName } from "@/lib/memory/labels";
import { derivePlace } from "@/lib/memory/place";
import { changeableBy, FORGET_GRACE_DAYS, RECALL_LIMIT, recallable, utcDay, type Place, type Scope, type Viewer } from "@/lib/memory/rules";
import {
  countVisibleFacts,
  countVisibleThrough,
  decodeCursor,
  listExpiredFacts,
  listForgottenFacts,
  listVisibleFacts,
  liveFactCount,
  recall,
  recallableCount,
  type FactFilters,
  type FactOrder,
  type ListedFact,
  type StoredFact,
} from "@/lib/memory/store";
import { proposalsFor, writePolicies, type Proposal } from "@/lib/memory/proposals";
import { settingWaitInWords, waitingInWords } from "@/lib/memory/write-policy-words";
import { lookAlikesOf } from "@/lib/memory/look-alike-pairs";
import { lastActorsOf } from "@/lib/live/last-actors";
import { graceCutoff } from "@/lib/memory/writes";
import { RECENT_RECALL_DAYS, type MemoryPageParams } from "@/lib/validation/memory";
import { previewRecall } from "./preview-recall";

// Titles are the scopes' one name (labels.ts scopeName), filled in per workspace. An empty group says what to do next.
const GROUPS: { scope: Scope; id: string; description: string; empty: string }[] = [
  {
    scope: "workspace",
    id: "group-workspace",
    description: "Recalled anywhere in the workspace.",
    empty: "Nothing for everyone yet. Owners add one with Remember a fact; agents' proposals wait in an owner's Inbox.",
  },
  {
    scope: "channel",
    id: "group-channel",
    description: "Recalled only in their channel.",
    empty: "Nothing for a channel you can read yet. Remember a fact and pick its channel.",
  },
  {
    scope: "person",
    id: "group-person",
    description: "Recalled only in your DM.",
    empty: "Nothing kept just for you yet. Remember a fact for Just you, or tell the agent in your DM.",
  },
];

/** The paging links' words in each order: where the next page goes, and back to the first. */
const PAGE_WORDS: Record<FactOrder, { next: string; first: string }> = {
  newest: { next: "Older facts →", first: "← Newest facts" },
  oldest: { next: "Newer facts →", first: "← Oldest facts" },
  recalled: { next: "Less recalled facts →", first: "← Most recalled facts" },
};

/** One group as the page shows it: its count, one page of facts, and the links to page through it. */
export type FactGroupView = FactGroupProps & { scope: Scope };

export type MemoryPageData = {
  /** The page's own path, without parameters. */
  base: string;
  /** "Clear filters": the page without its filters, in the order the person chose (newest, the default, needs no parameter). */
  clearFiltersHref: string;
  now: number;
  /** The conversations the member can read. */
  channels: ReadableChannel[];
  /** Where a recall can be previewed: the member's own DM first. */
  places: { id: string; label: string }[];
  groups: FactGroupView[];
  forgotten: ForgottenView[];
  /** Expired facts the person may change: the most recently ended, and how many in all. */
  expired: { facts: ExpiredView[]; total: number };
  kept: number;
  /** The proposals this person may decide, for the Inbox (empty: no Inbox). */
  proposals: ProposalView[];
  /** What waits for a person, in one sentence (the agent's write policies). */
  waiting: string;
  /** The place the person is looking at (the channel filtered on, else their own DM), when more facts apply there than are recalled. */
  beyondLimit: { place: string; applies: number } | null;
  /** Whether the person has a DM of their own, the one place their Just you facts are recalled. */
  hasOwnDm: boolean;
  preview: PreviewResult;
  /** The page's parameters but the preview's, for the preview form to keep. */
  keep: Record<string, string>;
};

/** The preview form's own fields, which it sends itself. */
const PREVIEW_PARAMS = new Set(["preview", "preview_q", "preview_budget"]);

const dateOnly = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

/** The page's URL with some parameters changed (undefined removes one). */
function hrefWith(base: string, params: MemoryPageParams, changes: Partial<Record<keyof MemoryPageParams, string | undefined>>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...params, ...changes })) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

/** A channel fact's channel as people know it ("DM with Ana", never "#dm-ana"); the viewer reads every channel they are shown a fact of. */
function channelOf(fact: { scope: string; scopeRef: string; scopeLabel: string | null }, labels: Map<string, string>): string | null {
  if (fact.scope !== "channel") return null;
  return labels.get(fact.scopeRef) ?? fact.scopeLabel ?? `#${fact.scopeRef}`;
}

/** "@ana in #support" on a #support fact says "@ana": the card names the channel once. */
function withoutItsChannel(fact: ListedFact): string | null {
  const source = fact.sourceLabel;
  if (!source || fact.scope !== "channel") return source;
  for (const where of [fact.scopeLabel, "a direct message"]) {
    if (where && source.endsWith(` in ${where}`)) return source.slice(0, -` in ${where}`.length);
  }
  return source;
}

function toView(fact: ListedFact, agentName: string, viewer: Viewer, labels: Map<string, string>): FactView {
  return {
    id: fact.id,
    body: fact.body,
    scope: fact.scope as Scope,
    channelLabel: channelOf(fact, labels),
    keptBy: fact.createdByKind === "agent" ? agentName : `Told by ${fact.createdByName ?? "a former member"}`,
    // For a fact a person told, "from @them" would only repeat "Told by"; after a correction it says who corrected it.
    sourceLabel: fact.sourceKind === "person" && !fact.correctedAt ? null : withoutItsChannel(fact),
    corrected: Boolean(fact.correctedAt),
    pinned: fact.pinned,
    version: fact.version,
    updatedAt: fact.updatedAt,
    recalledCount: fact.recalledCount,
    lastRecalledAt: fact.lastRecalledAt,
    validUntil: fact.validUntil ?? null,
    canChange: changeableBy(fact, viewer),
  };
}

function toProposalView(proposal: Proposal, agentName: string, workspaceName: string, labels: Map<string, string>): ProposalView {
  return {
    id: proposal.id,
    body: proposal.body,
    version: proposal.version,
    scope: proposal.scope as Scope,
    channelLabel: channelOf(proposal, labels),
    proposedBy: agentName,
    sourceLabel: proposal.sourceLabel,
    proposedAt: proposal.proposedAt,
    waits:
      proposal.proposalReason === "instruction"
        ? { kind: "instruction", why: proposal.why ?? "it is addressed to the agent" }
        : { kind: "setting", words: settingWaitInWords(agentName, workspaceName, proposal.scope) },
  };
}

function toForgottenView(fact: StoredFact): ForgottenView {
  return {
    id: fact.id,
    body: fact.body,
    forgottenAt: fact.forgottenAt ?? "",
    purgeOn: dateOnly.format(new Date(new Date(fact.forgottenAt ?? 0).getTime() + FORGET_GRACE_DAYS * 86_400_000)),
  };
}

export async function loadMemoryPage(member: Member, agent: Agent, query: MemoryPageParams): Promise<MemoryPageData> {
  const db = getDb();
  const workspaceId = member.workspace.id;
  const channels = await readableChannels(db, { workspaceId, id: member.id });
  const readable = new Set(channels.map((c) => c.id));
  const viewer: Viewer = { workspaceId, id: member.id, owner: member.role === "owner", canRead: (id) => readable.has(id) };
  const now = requestTime();
  const today = utcDay(new Date(now));
  const filters: FactFilters = {
    search: query.q,
    scope: query.scope,
    channelId: query.channel,
    pinned: query.pinned === undefined ? undefined : query.pinned === "yes",
    keptBy: query.kept,
    sourceKind: query.source,
    notRecalledSince: query.recalled ? new Date(now - RECENT_RECALL_DAYS * 86_400_000).toISOString() : undefined,
    // Expired facts are not recalled: they are listed apart, under Expired, with Renew and Forget.
    unexpiredOn: today,
  };

  const groups = GROUPS.filter((group) => !query.scope || query.scope === group.scope);
  // The sort only orders what the filters allow (fact-order.ts); each group pages in it.
  const order: FactOrder = query.sort ?? "newest";
  const filtered = Boolean(query.q || query.channel || query.pinned || query.kept || query.source || query.recalled);
  const labels = new Map(channels.map((c) => [c.id, c.label]));
  const ownDm = channels.find((c) => c.isOwnDm) ?? null;
  // The recall limit is marked for the place the person is looking at: the channel filtered on, else their own DM.
  const lookingAt = query.channel && readable.has(query.channel) ? query.channel : (ownDm?.id ?? null);
  const [counts, pages, kept, forgotten, expired, preview, proposals, policies, limit] = await Promise.all([
    countVisibleFacts(db, viewer, agent.id, filters),
    Promise.all(
      groups.map((group) =>
        listVisibleFacts(db, viewer, agent.id, {
          ...filters,
          scope: group.scope,
          order,
          after: decodeCursor(query[`after_${group.scope}`], order),
        }),
      ),
    ),
    liveFactCount(db, agent.id),
    listForgottenFacts(db, viewer, agent.id, graceCutoff()),
    listExpiredFacts(db, viewer, agent.id, today),
    previewRecall(
      db,
      { workspaceId, personId: member.id, agentId: agent.id },
      { place: query.preview, question: query.preview_q, budget: query.preview_budget },
      channels,
    ),
    proposalsFor(db, viewer, agent.id),
    writePolicies(db, workspaceId, agent.id),
    lookingAt ? recallLimitIn(db, workspaceId, agent.id, member.id, lookingAt, today) : null,
  ]);
  // Where each group's page starts: after the facts up to its cursor (0 on the first page).
  const starts = await Promise.all(
    groups.map((group) => {
      const after = decodeCursor(query[`after_${group.scope}`], order);
      return after ? countVisibleThrough(db, viewer, agent.id, { ...filters, scope: group.scope }, after) : 0;
    }),
  );
  const placeWords = lookingAt === ownDm?.id ? `your DM with ${agent.name}` : (labels.get(lookingAt ?? "") ?? "");
  const beyondLimit = limit && limit.applies > RECALL_LIMIT ? { place: placeWords, applies: limit.applies } : null;
  const notRecalled = (fact: ListedFact) =>
    beyondLimit && limit && recallable(fact, limit.place, today) && !limit.recalled.has(fact.id)
      ? `Not recalled in ${placeWords}: ${RECALL_LIMIT} newer or pinned facts come first — ask about it to recall it.`
      : null;

  // "Looks like …" on the listed facts: the pairs this person may see both facts of (look-alike-pairs.ts).
  const listed = pages.flatMap((page) => page.facts.map((fact) => fact.id));
  const lookAlikes = new Map<string, { id: string; body: string }[]>();
  const [pairs, lastActors] = await Promise.all([
    lookAlikesOf(db, viewer, agent.id, listed, today),
    // Who last changed each listed fact, for the live marks ("changed by Max").
    lastActorsOf(db, viewer, agent.id, listed),
  ]);
  for (const { factId, id, body } of pairs) {
    lookAlikes.set(factId, [...(lookAlikes.get(factId) ?? []), { id, body }]);
  }

  const base = `/w/${workspaceId}/agents/${agent.handle}/memory`;
  return {
    base,
    clearFiltersHref: hrefWith(base, {}, { sort: order === "newest" ? undefined : order }),
    now,
    channels,
    places: [...channels].sort((a, b) => Number(b.isOwnDm) - Number(a.isOwnDm)).map((c) => ({ id: c.id, label: c.label })),
    groups: groups.map((group, i) => {
      const page = pages[i];
      const cursor = `after_${group.scope}` as const;
      const { empty, ...shown } = group;
      return {
        ...shown,
        emptyText: filtered ? "None here match the search or filters." : empty,
        title: scopeName(group.scope, member.workspace.name),
        count: counts[group.scope],
        facts: page.facts.map((fact) => ({
          ...toView(fact, agent.name, viewer, labels),
          notRecalled: notRecalled(fact),
          lookAlikes: lookAlikes.get(fact.id) ?? [],
          changedBy: lastActors.get(fact.id) ?? null,
        })),
        olderHref: page.next ? hrefWith(base, query, { [cursor]: page.next }) : null,
        pageWords: PAGE_WORDS[order],
        range:
          page.next || query[cursor] ? { from: starts[i] + 1, to: starts[i] + page.facts.length } : null,
        newestHref: query[cursor] ? hrefWith(base, query, { [cursor]: undefined }) : null,
      };
    }),
    forgotten: forgotten.map(toForgottenView),
    expired: {
      total: expired.total,
      facts: expired.facts.map((fact) => ({
        id: fact.id,
        body: fact.body,
        validUntil: fact.validUntil ?? "",
        channelLabel: channelOf(fact, labels),
      })),
    },
    kept,
    proposals: proposals.map((proposal) => toProposalView(proposal, agent.name, member.workspace.name, labels)),
    // The agent was found in this workspace a moment ago; deleted since, the page's next load says so.
    waiting: policies ? waitingInWords(agent.name, member.workspace.name, policies) : "",
    beyondLimit,
    hasOwnDm: ownDm !== null,
    preview,
    keep: Object.fromEntries(
      Object.entries(query).filter(([key, value]) => !PREVIEW_PARAMS.has(key) && typeof value === "string"),
    ) as Record<string, string>,
  };
}

/**
 * What the agent recalls in one place the person can read, by the same rules and
 * query as recall itself: every fact that applies there is one this person may
 * see (workspace facts, that channel's, their own), so marking the rest reveals nothing.
 */
async function recallLimitIn(
  db: ReturnType<typeof getDb>,
  workspaceId: string,
  agentId: string,
  personId: string,
  channelId: string,
  today: string,
): Promise<{ place: Place; applies: number; recalled: Set<string> } | null> {
  let place: Place;
  try {
    ({ place } = await derivePlace(db, workspaceId, channelId, personId));
  } catch {
    // A channel read without being in it (an owner's view): no recall there is this person's to mark.
    return null;
  }
  const [applies, recalled] = await Promise.all([recallableCount(db, agentId, place, today), recall(db, agentId, place, today)]);
  return { place, applies, recalled: new Set(recalled.map((fact) => fact.id)) };
}
