/**
 * "Everything about you" (issue #16): what Mnemo keeps about one person across
 * every workspace they are in and every agent there, as counts and pages. Each
 * list applies the same rules as the Memory page in its WHERE clause (shownSql for
 * live facts and proposals, changeableSql for Recently forgotten), per workspace,
 * so nothing here widens what the person sees: a workspace they left shows nothing.
 *
 *   aboutPerson(db, userId, { pages?, pageSize? }) → AboutPerson
 *     counts: { kept, told, from_messages, events }       (all workspaces)
 *     workspaces: [{ id, name, role, agents: [{ id, handle, name, counts }] }]
 *     lists: { kept, told, from_messages: Page<AboutFact>, events: Page<AboutEvent> }
 *   aboutPersonAll(db, userId) → every item of every list (exportPerson's source)
 */
import { readAll, readOne, type Conn, type SqlArg, type SqlPart } from "@/db/client";
import type { Role } from "@/db/schema";
import { handleOf } from "@/lib/person-name";
import { readableChannels } from "@/lib/memory/channels";
import { changeableSql, shownSql } from "@/lib/memory/rules-sql";
import {
  ABOUT_LISTS,
  type AboutCounts,
  type AboutEvent,
  type AboutFact,
  type AboutList,
  type AgentRef,
  type Page,
} from "./types";

export const ABOUT_PAGE_SIZE = 50;

export type AboutWorkspace = {
  id: string;
  name: string;
  role: Role;
  agents: (AgentRef & { counts: AboutCounts })[];
};

export type AboutPerson = {
  counts: AboutCounts;
  workspaces: AboutWorkspace[];
  lists: { kept: Page<AboutFact>; told: Page<AboutFact>; from_messages: Page<AboutFact>; events: Page<AboutEvent> };
};

export type AboutOptions = {
  /** 1-based page of each list; out of range reads as the nearest page. */
  pages?: Partial<Record<AboutList, number>>;
  pageSize?: number;
};

type Member = { workspaceId: string; workspaceName: string; role: Role };
type Person = { id: string; handle: string; workspaces: Member[] };

async function personOf(db: Conn, userId: string): Promise<Person | null> {
  const user = await readOne<{ email: string }>(db, "SELECT email FROM users WHERE id = ?", [userId]);
  if (!user) return null;
  const workspaces = await readAll<Member>(
    db,
    `SELECT m.workspace_id AS workspaceId, w.name AS workspaceName, m.role AS role
      FROM memberships m JOIN workspaces w ON w.id = m.workspace_id
      WHERE m.user_id = ? ORDER BY w.name, w.id`,
    [userId],
  );
  return { id: userId, handle: handleOf(user.email), workspaces };
}

/** LIKE's wildcards in a handle match themselves. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * What this person may see of the facts of one workspace: live facts and proposals as
 * the Memory page shows them, forgotten ones as Recently forgotten does.
 */
function maySeeSql(workspaceId: string, userId: string): SqlPart {
  const viewer = { workspaceId, id: userId };
  const shown = shownSql(viewer);
  const changeable = changeableSql(viewer);
  return {
    text: `((facts.forgotten_at IS NULL AND ${shown.text}) OR (facts.forgotten_at IS NOT NULL AND ${changeable.text}))`,
    args: [...shown.args, ...changeable.args],
  };
}

/** Which facts each list holds, beside the visibility rule. */
function listSql(list: Exclude<AboutList, "events">, person: Person): SqlPart {
  switch (list) {
    case "kept":
      return { text: "facts.scope = 'person' AND facts.scope_ref = ?", args: [person.id] };
    case "told":
      return {
        text: "((facts.created_by_kind = 'user' AND facts.created_by = ?) OR (facts.source_kind = 'person' AND facts.source_ref = ?))",
        args: [person.id, person.id],
      };
    case "from_messages":
      // An agent's source label names the asker by handle ("@ana in #general", labels.ts): no id is kept.
      return {
        text: "facts.source_kind = 'message' AND facts.source_label LIKE ? ESCAPE '\\'",
        args: [`@${likeLiteral(person.handle)} in %`],
      };
  }
}

const EVENTS_WHERE = "e.actor_kind = 'user' AND e.actor_id = ?";

/** The WHERE of one list in one workspace, and the FROM it reads. */
function whereOf(list: AboutList, person: Person, workspaceId: string): { from: string; where: SqlPart } {
  const maySee = maySeeSql(workspaceId, person.id);
  if (list === "events") {
    return {
      from: "fact_events e JOIN facts ON facts.id = e.fact_id",
      where: { text: `${EVENTS_WHERE} AND facts.workspace_id = ? AND ${maySee.text}`, args: [person.id, workspaceId, ...maySee.args] },
    };
  }
  const which = listSql(list, person);
  return {
    from: "facts",
    where: { text: `${which.text} AND facts.workspace_id = ? AND ${maySee.text}`, args: [...which.args, workspaceId, ...maySee.args] },
  };
}

/** Every list's WHERE over all the person's workspaces, as one OR (each branch its own workspace's rule). */
function acrossWorkspaces(list: AboutList, person: Person): { from: string; where: SqlPart } | null {
  if (!person.workspaces.length) return null;
  const parts = person.workspaces.map((w) => whereOf(list, person, w.workspaceId));
  return {
    from: parts[0].from,
    where: { text: parts.map((p) => `(${p.where.text})`).join(" OR "), args: parts.flatMap((p) => p.where.args) },
  };
}

const EMPTY_COUNTS: AboutCounts = { kept: 0, told: 0, from_messages: 0, events: 0 };

type FactRowOut = {
  id: string;
  workspaceId: string;
  workspaceName: string;
  agentId: string;
  agentHandle: string;
  agentName: string;
  body: string;
  scope: AboutFact["scope"];
  scopeRef: string;
  scopeLabel: string | null;
  sourceLabel: string | null;
  forgottenAt: string | null;
  proposedAt: string | null;
  createdAt: string;
  updatedAt: string;
  validUntil: string | null;
};

const FACT_SELECT = `facts.id AS id, facts.workspace_id AS workspaceId, w.name AS workspaceName,
  facts.agent_id AS agentId, a.handle AS agentHandle, a.name AS agentName, facts.body AS body, facts.scope AS scope,
  facts.scope_ref AS scopeRef, facts.scope_label AS scopeLabel, facts.source_label AS sourceLabel, facts.forgotten_at AS forgottenAt,
  facts.proposed_at AS proposedAt, facts.created_at AS createdAt, facts.updated_at AS updatedAt, facts.valid_until AS validUntil`;
const JOINS = "JOIN agents a ON a.id = facts.agent_id JOIN workspaces w ON w.id = facts.workspace_id";

/**
 * The channels the person reads, by workspace and id, named as the Memory page names
 * them for this person ("Your DM", "DM with Ana Alves"; labels.ts channelLabel).
 */
type ChannelNames = Map<string, string>;
const channelKey = (workspaceId: string, channelId: string) => `${workspaceId}\u0000${channelId}`;

async function channelNamesOf(db: Conn, person: Person): Promise<ChannelNames> {
  const names: ChannelNames = new Map();
  for (const w of person.workspaces) {
    for (const channel of await readableChannels(db, { workspaceId: w.workspaceId, id: person.id })) {
      names.set(channelKey(w.workspaceId, channel.id), channel.label);
    }
  }
  return names;
}

function aboutFact(row: FactRowOut, channels: ChannelNames): AboutFact {
  return {
    id: row.id,
    workspace: { id: row.workspaceId, name: row.workspaceName },
    agent: { id: row.agentId, handle: row.agentHandle, name: row.agentName },
    body: row.body,
    scope: row.scope,
    // A channel fact's channel as this person knows it, never a DM's inner name ("#dm-ana"); every
    // channel fact listed is one they may read (shownSql, changeableSql), so the stored label is only a fallback.
    scope_label: row.scope === "channel" ? (channels.get(channelKey(row.workspaceId, row.scopeRef)) ?? row.scopeLabel) : row.scopeLabel,
    source_label: row.sourceLabel,
    status: row.forgottenAt ? "forgotten" : row.proposedAt ? "proposed" : "live",
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    valid_until: row.validUntil,
  };
}

type EventRowOut = {
  id: number;
  factId: string;
  workspaceId: string;
  workspaceName: string;
  agentId: string;
  agentHandle: string;
  agentName: string;
  kind: string;
  before: string | null;
  after: string | null;
  at: string;
};

function aboutEvent(row: EventRowOut): AboutEvent {
  return {
    id: Number(row.id),
    fact_id: row.factId,
    workspace: { id: row.workspaceId, name: row.workspaceName },
    agent: { id: row.agentId, handle: row.agentHandle, name: row.agentName },
    kind: row.kind,
    before: row.before,
    after: row.after,
    at: row.at,
  };
}

async function readFacts(
  db: Conn,
  list: Exclude<AboutList, "events">,
  person: Person,
  channels: ChannelNames,
  limit: number,
  offset: number,
) {
  const q = acrossWorkspaces(list, person);
  if (!q) return [];
  const rows = await readAll<FactRowOut>(
    db,
    `SELECT ${FACT_SELECT} FROM facts ${JOINS} WHERE ${q.where.text}
      ORDER BY w.name, a.handle, facts.updated_at DESC, facts.id LIMIT ? OFFSET ?`,
    [...q.where.args, limit, offset],
  );
  return rows.map((row) => aboutFact(row, channels));
}

async function readEvents(db: Conn, person: Person, limit: number, offset: number) {
  const q = acrossWorkspaces("events", person);
  if (!q) return [];
  const rows = await readAll<EventRowOut>(
    db,
    `SELECT e.id AS id, e.fact_id AS factId, facts.workspace_id AS workspaceId, w.name AS workspaceName,
        facts.agent_id AS agentId, a.handle AS agentHandle, a.name AS agentName, e.kind AS kind, e.before AS before,
        e.after AS after, e.at AS at
      FROM ${q.from} ${JOINS} WHERE ${q.where.text}
      ORDER BY e.id DESC LIMIT ? OFFSET ?`,
    [...q.where.args, limit, offset],
  );
  return rows.map(aboutEvent);
}

/** Counts per agent of one list, over every workspace the person is in. */
async function countsPerAgent(db: Conn, list: AboutList, person: Person): Promise<Map<string, number>> {
  const q = acrossWorkspaces(list, person);
  if (!q) return new Map();
  const rows = await readAll<{ agentId: string; n: number }>(
    db,
    `SELECT facts.agent_id AS agentId, count(*) AS n FROM ${q.from} WHERE ${q.where.text} GROUP BY facts.agent_id`,
    q.where.args as SqlArg[],
  );
  return new Map(rows.map((r) => [r.agentId, Number(r.n)]));
}

function pageOf(total: number, wanted: number | undefined, size: number): { page: number; pages: number; offset: number } {
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(pages, Math.max(1, Math.floor(wanted !== undefined && Number.isFinite(wanted) ? wanted : 1)));
  return { page, pages, offset: (page - 1) * size };
}

export async function aboutPerson(db: Conn, userId: string, options: AboutOptions = {}): Promise<AboutPerson> {
  const size = Math.max(1, Math.min(200, options.pageSize ?? ABOUT_PAGE_SIZE));
  const person = (await personOf(db, userId)) ?? { id: userId, handle: "", workspaces: [] };
  const perList = new Map<AboutList, Map<string, number>>();
  for (const list of ABOUT_LISTS) perList.set(list, await countsPerAgent(db, list, person));

  const agents = person.workspaces.length
    ? await readAll<AgentRef & { workspaceId: string }>(
        db,
        `SELECT id, handle, name, workspace_id AS workspaceId FROM agents
          WHERE workspace_id IN (${person.workspaces.map(() => "?").join(", ")}) ORDER BY handle, id`,
        person.workspaces.map((w) => w.workspaceId),
      )
    : [];
  const counts: AboutCounts = { ...EMPTY_COUNTS };
  const workspaces: AboutWorkspace[] = person.workspaces.map((w) => ({
    id: w.workspaceId,
    name: w.workspaceName,
    role: w.role,
    agents: agents
      .filter((a) => a.workspaceId === w.workspaceId)
      .map((a) => {
        const agentCounts = Object.fromEntries(ABOUT_LISTS.map((l) => [l, perList.get(l)?.get(a.id) ?? 0])) as AboutCounts;
        for (const l of ABOUT_LISTS) counts[l] += agentCounts[l];
        return { id: a.id, handle: a.handle, name: a.name, counts: agentCounts };
      }),
  }));

  const channels = await channelNamesOf(db, person);
  const factPage = async (list: Exclude<AboutList, "events">): Promise<Page<AboutFact>> => {
    const at = pageOf(counts[list], options.pages?.[list], size);
    return { items: await readFacts(db, list, person, channels, size, at.offset), page: at.page, pages: at.pages, total: counts[list] };
  };
  const at = pageOf(counts.events, options.pages?.events, size);
  return {
    counts,
    workspaces,
    lists: {
      kept: await factPage("kept"),
      told: await factPage("told"),
      from_messages: await factPage("from_messages"),
      events: { items: await readEvents(db, person, size, at.offset), page: at.page, pages: at.pages, total: counts.events },
    },
  };
}

/** Every item of every list, unpaginated: the download. */
export async function aboutPersonAll(
  db: Conn,
  userId: string,
): Promise<{ counts: AboutCounts; kept: AboutFact[]; told: AboutFact[]; from_messages: AboutFact[]; events: AboutEvent[] } | null> {
  const person = await personOf(db, userId);
  if (!person) return null;
  const all = -1; // SQLite: LIMIT -1 is no limit
  const channels = await channelNamesOf(db, person);
  const kept = await readFacts(db, "kept", person, channels, all, 0);
  const told = await readFacts(db, "told", person, channels, all, 0);
  const fromMessages = await readFacts(db, "from_messages", person, channels, all, 0);
  const events = await readEvents(db, person, all, 0);
  return {
    counts: { kept: kept.length, told: told.length, from_messages: fromMessages.length, events: events.length },
    kept,
    told,
    from_messages: fromMessages,
    events,
  };
}
