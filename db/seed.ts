/**
 * The demo workspace (two teams, five people, nine facts), seeded into an empty
 * database so a newcomer can sign in at once. Never touches a database that
 * already holds people or workspaces.
 */
import { count } from "drizzle-orm";
import type { Db } from "./client";
import { agentKeys, agents, channelMembers, channels, memberships, users, workspaces } from "./schema";
import { agentKeyPrefix, generateAgentKey, hashAgentKey } from "@/lib/api/agent-keys";
import { hashPassword } from "@/lib/auth/password";
import { remember, type NewFact } from "@/lib/memory/writes";

/** The documented password of every demo person (a demo value, not a secret). */
export const DEMO_PASSWORD = "demo-password";

/** The demo's two teams, each with one agent. */
export const DEMO_WORKSPACES = [
  { id: "acme", name: "Acme", agent: { id: "scout", handle: "scout", name: "Scout" } },
  { id: "globex", name: "Globex", agent: { id: "echo", handle: "echo", name: "Echo" } },
] as const;

/** The demo people, as the start script prints them and the tests sign them in. */
export const DEMO_PEOPLE = [
  { id: "olivia", name: "Olivia Owen", email: "olivia@acme.test", workspace: "acme", role: "owner" },
  { id: "max", name: "Max Mills", email: "max@acme.test", workspace: "acme", role: "member" },
  { id: "ana", name: "Ana Alves", email: "ana@acme.test", workspace: "acme", role: "member" },
  { id: "gus", name: "Gus Gray", email: "gus@acme.test", workspace: "acme", role: "member" },
  { id: "gina", name: "Gina Grant", email: "gina@globex.test", workspace: "globex", role: "owner" },
] as const;

/** The demo's facts by a short name, for tests: Scout's eight, then Echo's one. */
export const DEMO_FACTS = {
  releases: "Releases go out on Thursdays.", // workspace, told by Olivia, pinned
  sso: "The Enterprise plan includes SSO.", // workspace, kept by Scout
  refunds: "Refunds over $500 need a manager's approval.", // channel support (public: max, ana)
  budget: "The Q3 budget freeze lifts in October.", // channel leadership (private: olivia, max)
  pairing: "Max and Ana are pairing on the billing migration.", // channel group-max-ana (dm: max, ana)
  anaPerson: "Ana prefers replies in Portuguese.",
  maxPerson: "Max is on call the first week of each month.", // told by Max, pinned
  gusPerson: "Gus is new; explain acronyms.",
  globex: "Globex ships from Springfield.", // Echo's, in globex
} as const;

const CHANNELS = [
  { id: "general", workspaceId: "acme", kind: "public", people: ["olivia", "max", "ana", "gus"] },
  { id: "support", workspaceId: "acme", kind: "public", people: ["max", "ana"] },
  { id: "leadership", workspaceId: "acme", kind: "private", people: ["olivia", "max"] },
  { id: "dm-ana", workspaceId: "acme", kind: "dm", people: ["ana"] },
  { id: "dm-max", workspaceId: "acme", kind: "dm", people: ["max"] },
  { id: "dm-gus", workspaceId: "acme", kind: "dm", people: ["gus"] },
  { id: "group-max-ana", workspaceId: "acme", kind: "dm", people: ["max", "ana"] },
  { id: "lobby", workspaceId: "globex", kind: "public", people: ["gina"] },
  { id: "dm-gina", workspaceId: "globex", kind: "dm", people: ["gina"] },
] as const;

const SCOUT = { kind: "agent", id: "scout", name: "Scout" } as const;
const ECHO = { kind: "agent", id: "echo", name: "Echo" } as const;
const person = (id: string, name: string) => ({ kind: "user" as const, id, name });

function agentFact(
  agent: typeof SCOUT | typeof ECHO,
  workspaceId: string,
  scope: NewFact["scope"],
  scopeRef: string,
  scopeLabel: string | null,
  body: string,
  label: string,
  channelId: string,
): NewFact {
  return {
    agentId: agent.id,
    workspaceId,
    body,
    scope,
    scopeRef,
    scopeLabel,
    source: { kind: "message", ref: null, label, channelId },
    by: agent,
    pinned: false,
  };
}

function toldFact(
  by: ReturnType<typeof person>,
  handle: string,
  scope: NewFact["scope"],
  scopeRef: string,
  scopeLabel: string | null,
  body: string,
): NewFact {
  return {
    agentId: "scout",
    workspaceId: "acme",
    body,
    scope,
    scopeRef,
    scopeLabel,
    source: { kind: "person", ref: by.id, label: `@${handle}`, channelId: null },
    by,
    pinned: true,
  };
}

// Oldest first, so the newest of the list is also the newest in the database.
const FACTS: NewFact[] = [
  agentFact(SCOUT, "acme", "person", "gus", "Gus Gray", DEMO_FACTS.gusPerson, "@gus in a direct message", "dm-gus"),
  agentFact(SCOUT, "acme", "channel", "leadership", "#leadership", DEMO_FACTS.budget, "@olivia in #leadership", "leadership"),
  agentFact(SCOUT, "acme", "channel", "group-max-ana", "#group-max-ana", DEMO_FACTS.pairing, "@max in a direct message", "group-max-ana"),
  agentFact(SCOUT, "acme", "person", "ana", "Ana Alves", DEMO_FACTS.anaPerson, "@ana in a direct message", "dm-ana"),
  agentFact(SCOUT, "acme", "channel", "support", "#support", DEMO_FACTS.refunds, "@ana in #support", "support"),
  agentFact(SCOUT, "acme", "workspace", "", null, DEMO_FACTS.sso, "@max in #general", "general"),
  toldFact(person("max", "Max Mills"), "max", "person", "max", "Max Mills", DEMO_FACTS.maxPerson),
  toldFact(person("olivia", "Olivia Owen"), "olivia", "workspace", "", null, DEMO_FACTS.releases),
  agentFact(ECHO, "globex", "workspace", "", null, DEMO_FACTS.globex, "@gina in #lobby", "lobby"),
];

export type DemoKeys = { scout: string; echo: string; generated: boolean };

/**
 * Seeds the demo into an empty database. Returns the agent keys (from the
 * environment, or freshly made to be printed once), or null when the database
 * already held data and nothing was written.
 */
export async function seedDemo(
  db: Db,
  keys: { scout?: string; echo?: string } = {},
): Promise<DemoKeys | null> {
  const [people] = await db.select({ n: count() }).from(users);
  const [teams] = await db.select({ n: count() }).from(workspaces);
  if (people.n > 0 || teams.n > 0) return null;

  const scoutKey = keys.scout ?? generateAgentKey();
  const echoKey = keys.echo ?? generateAgentKey();
  const hashes = await Promise.all(DEMO_PEOPLE.map(() => hashPassword(DEMO_PASSWORD)));

  await db.transaction(async (tx) => {
    await tx.insert(workspaces).values(DEMO_WORKSPACES.map((w) => ({ id: w.id, name: w.name })));
    await tx.insert(users).values(
      DEMO_PEOPLE.map((p, i) => ({ id: p.id, name: p.name, email: p.email, passwordHash: hashes[i] })),
    );
    await tx.insert(memberships).values(
      DEMO_PEOPLE.map((p) => ({ workspaceId: p.workspace, userId: p.id, role: p.role })),
    );
    await tx.insert(channels).values(
      CHANNELS.map((c) => ({ id: c.id, workspaceId: c.workspaceId, name: c.id, kind: c.kind })),
    );
    await tx.insert(channelMembers).values(
      CHANNELS.flatMap((c) => c.people.map((userId) => ({ channelId: c.id, workspaceId: c.workspaceId, userId }))),
    );
    await tx.insert(agents).values(DEMO_WORKSPACES.map((w) => ({ ...w.agent, workspaceId: w.id })));
    await tx.insert(agentKeys).values([
      { id: "key_demo_scout", agentId: "scout", name: "Demo key", prefix: agentKeyPrefix(scoutKey), hash: hashAgentKey(scoutKey) },
      { id: "key_demo_echo", agentId: "echo", name: "Demo key", prefix: agentKeyPrefix(echoKey), hash: hashAgentKey(echoKey) },
    ]);
    for (const fact of FACTS) {
      const result = await remember(tx, fact);
      if (result.status !== "created") throw new Error(`Demo fact not created: ${result.status}`);
    }
  });
  return { scout: scoutKey, echo: echoKey, generated: !keys.scout || !keys.echo };
}
