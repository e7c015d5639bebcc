/**
 * Mnemo's whole database, one table per concept (the README's "Where things are" maps them to code).
 *
 * Every row belongs to one workspace, and the foreign keys say so: a channel
 * member must be a member of the channel's workspace (a composite key onto
 * `memberships`), so removing a person from a workspace removes them from its
 * channels in the same statement. Times are ISO 8601 strings in UTC, which sort
 * as text; `facts.updated_at` relies on that for recall order.
 */
import { sql } from "drizzle-orm";
import {
  check,
  customType,
  foreignKey,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

/** libSQL's vector column (F32_BLOB), written with vector32('[…]') and compared with vector_distance_cos. */
const vector = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "F32_BLOB" });

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

// --- Auth.js (the Drizzle adapter's tables, with our snake_case columns) ---

export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name"),
  email: text("email").notNull().unique(),
  emailVerified: integer("email_verified", { mode: "timestamp_ms" }),
  image: text("image"),
  /** argon2id; null for people who only sign in with OAuth or have not accepted an invite yet. */
  passwordHash: text("password_hash"),
  /**
   * Carried in every session token and compared on every request (lib/auth/session.ts):
   * signing out, a password reset, or leaving one's last workspace bumps it, which
   * ends every session of this person at once, on every device.
   */
  sessionVersion: integer("session_version").notNull().default(0),
  createdAt: text("created_at").notNull().default(now),
});

export const accounts = sqliteTable(
  "accounts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: integer("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerAccountId] }),
    index("accounts_user_idx").on(t.userId),
  ],
);

export const sessions = sqliteTable(
  "sessions",
  {
    sessionToken: text("session_token").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

export const verificationTokens = sqliteTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: integer("expires", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
);

/** Failed sign-ins, counted per email and per address to slow down guessing. */
export const signInFailures = sqliteTable(
  "sign_in_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    key: text("key").notNull(),
    at: text("at").notNull().default(now),
  },
  (t) => [index("sign_in_failures_key_at_idx").on(t.key, t.at)],
);

// --- Workspaces, people and conversations ---

export const workspaces = sqliteTable("workspaces", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** Bumped by triggers (drizzle/0005) whenever a channel, channel member or membership of this workspace changes: what places are derived from. */
  placesVersion: integer("places_version").notNull().default(0),
  createdAt: text("created_at").notNull().default(now),
});

export const ROLES = ["owner", "member"] as const;

export const memberships = sqliteTable(
  "memberships",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull().default("member"),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index("memberships_user_idx").on(t.userId),
    check("memberships_role_check", sql`${t.role} in ('owner', 'member')`),
  ],
);

export const CHANNEL_KINDS = ["public", "private", "dm"] as const;

export const channels = sqliteTable(
  "channels",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    kind: text("kind", { enum: CHANNEL_KINDS }).notNull(),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("channels_workspace_name_idx").on(t.workspaceId, t.name),
    // Target of channel_members' composite key: a member row names the channel's own workspace.
    uniqueIndex("channels_id_workspace_idx").on(t.id, t.workspaceId),
    check("channels_kind_check", sql`${t.kind} in ('public', 'private', 'dm')`),
  ],
);

export const channelMembers = sqliteTable(
  "channel_members",
  {
    channelId: text("channel_id").notNull(),
    workspaceId: text("workspace_id").notNull(),
    userId: text("user_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.channelId, t.userId] }),
    index("channel_members_user_idx").on(t.userId),
    index("channel_members_workspace_user_idx").on(t.workspaceId, t.userId),
    foreignKey({
      columns: [t.channelId, t.workspaceId],
      foreignColumns: [channels.id, channels.workspaceId],
    }).onDelete("cascade"),
    // Leaving the workspace ends channel access in the same statement.
    foreignKey({
      columns: [t.workspaceId, t.userId],
      foreignColumns: [memberships.workspaceId, memberships.userId],
    }).onDelete("cascade"),
  ],
);

// --- Agents and their keys ---

/** Whether an agent's writes of a scope wait for a person's decision (proposals) or are kept at once. */
export const WRITE_POLICIES = ["wait", "keep"] as const;

export const agents = sqliteTable(
  "agents",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    handle: text("handle").notNull(),
    name: text("name").notNull(),
    /** Bumped by triggers (drizzle/0005) whenever any fact of this agent is added, changed or deleted. */
    memoryVersion: integer("memory_version").notNull().default(0),
    /** Workspace facts this agent writes: kept only once an owner approves them ("wait"), or at once ("keep"). */
    workspaceFacts: text("workspace_facts", { enum: WRITE_POLICIES }).notNull().default("wait"),
    /** Channel facts this agent writes: kept at once ("keep"), or once someone in the channel approves ("wait"). */
    channelFacts: text("channel_facts", { enum: WRITE_POLICIES }).notNull().default("keep"),
    createdAt: text("created_at").notNull().default(now),
  },
  // No CHECK on the policies: adding one would rebuild the table, and dropping `agents` cascades to its facts.
  (t) => [uniqueIndex("agents_workspace_handle_idx").on(t.workspaceId, t.handle)],
);

export const agentKeys = sqliteTable(
  "agent_keys",
  {
    id: text("id").primaryKey(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The first characters of the key, enough to recognise it in a list. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text("hash").notNull().unique(),
    createdAt: text("created_at").notNull().default(now),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
    /** When the key stops working (ISO, UTC), or null for never; the API refuses it from then on. */
    expiresAt: text("expires_at"),
  },
  (t) => [
    index("agent_keys_agent_idx").on(t.agentId),
    // One key of a name (any case) per agent among those not revoked: two alike can't be told apart in the list.
    uniqueIndex("agent_keys_live_name_idx")
      .on(t.agentId, sql`lower(${t.name})`)
      .where(sql`${t.revokedAt} is null`),
  ],
);

// --- Facts and their history ---

export const SCOPES = ["workspace", "channel", "person"] as const;
export const SOURCE_KINDS = ["message", "session", "person"] as const;
export const CREATOR_KINDS = ["agent", "user"] as const;

export const PROPOSAL_REASONS = ["setting", "instruction"] as const;

export const facts = sqliteTable(
  "facts",
  {
    /** Stable integer key for the full-text index (a plain rowid may change on VACUUM). */
    seq: integer("seq").primaryKey(),
    id: text("id").notNull().unique(),
    agentId: text("agent_id")
      .notNull()
      .references(() => agents.id, { onDelete: "cascade" }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    scope: text("scope", { enum: SCOPES }).notNull(),
    /** '' for workspace facts, the channel id for channel facts, the person's id for person facts. */
    scopeRef: text("scope_ref").notNull(),
    scopeLabel: text("scope_label"),
    body: text("body").notNull(),
    /** The body normalised for duplicate detection (dedupeKey in lib/memory/fact-text.ts). */
    bodyKey: text("body_key").notNull(),
    sourceKind: text("source_kind", { enum: SOURCE_KINDS }).notNull(),
    sourceRef: text("source_ref"),
    sourceLabel: text("source_label"),
    sourceChannelId: text("source_channel_id").references(() => channels.id, {
      onDelete: "set null",
    }),
    /** Who first kept it: an agent id or a person id, as `created_by_kind` says. */
    createdBy: text("created_by").notNull(),
    createdByKind: text("created_by_kind", { enum: CREATOR_KINDS }).notNull(),
    pinned: integer("pinned", { mode: "boolean" }).notNull().default(false),
    correctedAt: text("corrected_at"),
    /** Bumped by every change; an edit names the version it started from. */
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    /** Set while the fact is in "Recently forgotten": never recalled, not counted. */
    forgottenAt: text("forgotten_at"),
    /** The last day (UTC, "YYYY-MM-DD") the fact holds; from the next it is expired: never recalled, still counted. */
    validUntil: text("valid_until"),
    /**
     * Set while the fact is a proposal waiting for a person's decision: never recalled, still counted
     * toward the limit (a flood fills the agent, not the workspace), deduplicated like a live fact.
     */
    proposedAt: text("proposed_at"),
    /** Why a proposal waits: the agent's setting for its scope, or text that reads as an instruction. Set with proposed_at. */
    proposalReason: text("proposal_reason", { enum: PROPOSAL_REASONS }),
    /**
     * The fact's terms for ranked recall, JSON {term: weight} (factTerms in lib/memory/terms.ts), set by every
     * writer of its text or labels; triggers (drizzle/0015) keep its postings in `fact_terms` from it.
     * NULL only for rows older than the column until db/migrate.ts fills them.
     */
    terms: text("terms"),
    /**
     * The size in tokens of the fact's line in recall's prompt section, with a hash of the line it was
     * counted for (storedLineSize in lib/memory/token-budget.ts), set by the writers that make the line;
     * used only while the line still hashes the same, so a writer that changes the line without it
     * (pinning, say) costs a count at recall, never a wrong size. NULL: counted at recall.
     */
    lineSize: integer("line_size"),
  },
  (t) => [
    // Recall: agent, scope and ref by equality, then pinned and newest by the index's order.
    index("facts_recall_idx")
      .on(t.agentId, t.scope, t.scopeRef, t.pinned, t.updatedAt, t.id)
      .where(sql`${t.forgottenAt} is null`),
    // Listing a group (all of one scope) in recall order, and counting an agent's facts.
    index("facts_list_idx")
      .on(t.agentId, t.scope, t.pinned, t.updatedAt, t.id)
      .where(sql`${t.forgottenAt} is null`),
    // One live fact per normalised text in a scope: remembering a duplicate refreshes the fact instead.
    uniqueIndex("facts_dedupe_idx")
      .on(t.agentId, t.scope, t.scopeRef, t.bodyKey)
      .where(sql`${t.forgottenAt} is null`),
    index("facts_forgotten_idx")
      .on(t.agentId, t.forgottenAt)
      .where(sql`${t.forgottenAt} is not null`),
    index("facts_workspace_idx").on(t.workspaceId),
    // Facts whose terms are still to be filled (db/migrate.ts): empty once filled, so the check on start costs nothing.
    index("facts_terms_missing_idx").on(t.seq).where(sql`${t.terms} is null`),
    index("facts_source_channel_idx").on(t.sourceChannelId),
    check("facts_scope_check", sql`${t.scope} in ('workspace', 'channel', 'person')`),
    check(
      "facts_scope_ref_check",
      sql`(${t.scope} = 'workspace') = (${t.scopeRef} = '')`,
    ),
    check("facts_source_kind_check", sql`${t.sourceKind} in ('message', 'session', 'person')`),
    check("facts_created_by_kind_check", sql`${t.createdByKind} in ('agent', 'user')`),
    check("facts_body_length_check", sql`length(${t.body}) between 1 and 500`),
  ],
);

export const FACT_EVENT_KINDS = [
  "remember",
  "correct",
  "pin",
  "unpin",
  "forget",
  "restore",
  // Proposals: an agent's write waiting for a person, and that person's decision.
  "propose",
  "approve",
  "decline",
  // A fact written in another's place: the old one's text and id live on in the new one's history.
  "replace",
] as const;

export const factEvents = sqliteTable(
  "fact_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // Purging a fact purges its history: nothing of it is kept.
    factId: text("fact_id")
      .notNull()
      .references(() => facts.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: FACT_EVENT_KINDS }).notNull(),
    actorId: text("actor_id").notNull(),
    actorKind: text("actor_kind", { enum: CREATOR_KINDS }).notNull(),
    /** The actor's name at the time, so history reads well after people leave. */
    actorName: text("actor_name").notNull(),
    before: text("before"),
    after: text("after"),
    /** For "replace": the id the replaced fact had, so a link to it still leads here. */
    otherFactId: text("other_fact_id"),
    /** Where an agent made the change ("@ana in #general"), so History can say so after the fact it came with is gone. */
    placeLabel: text("place_label"),
    at: text("at").notNull(),
  },
  (t) => [
    index("fact_events_fact_idx").on(t.factId, t.id),
    index("fact_events_other_fact_idx").on(t.otherFactId).where(sql`${t.otherFactId} is not null`),
    check(
      "fact_events_kind_check",
      sql`${t.kind} in ('remember', 'correct', 'pin', 'unpin', 'forget', 'restore', 'propose', 'approve', 'decline', 'replace')`,
    ),
  ],
);

/**
 * A new fact that reads very like another live fact or proposal of the same agent,
 * scope and place (never identical: dedupe refreshes those). Kept so the Memory page
 * can say "Looks like …" until someone replaces the older one, keeps both (the row
 * goes) or forgets either (the cascade takes it).
 */
export const factLookAlikes = sqliteTable(
  "fact_look_alikes",
  {
    factId: text("fact_id")
      .notNull()
      .references(() => facts.id, { onDelete: "cascade" }),
    otherId: text("other_id")
      .notNull()
      .references(() => facts.id, { onDelete: "cascade" }),
    /** How alike, 0..1 (lib/memory/look-alikes.ts). */
    score: real("score").notNull(),
  },
  (t) => [primaryKey({ columns: [t.factId, t.otherId] }), index("fact_look_alikes_other_idx").on(t.otherId)],
);

/**
 * How often each fact was recalled, and when last. Kept beside the fact, not in it:
 * a change to `facts` bumps the agent's memory version (drizzle/0005), and counting
 * a recall must not make every kept recall answer stale. Written in batches
 * (lib/memory/usage.ts), never once per recall.
 */
export const factUsage = sqliteTable("fact_usage", {
  // By seq, the fact's integer key, not its id: a flush writes tens of thousands of counts, and numbers are cheaper
  // to count, sort and send than 21-character ids, and the foreign key's check is a rowid lookup (BENCHMARKS.md).
  factSeq: integer("fact_seq")
    .primaryKey()
    .references(() => facts.seq, { onDelete: "cascade" }),
  recalledCount: integer("recalled_count").notNull().default(0),
  lastRecalledAt: text("last_recalled_at"),
});

/**
 * A fact's meaning as an embeddings provider gave it (MNEMO_EMBEDDINGS_*), in
 * libSQL's own vector type. No dimension is declared: it is the model's, and a
 * vector of another model is never compared (`model` says whose it is). A body
 * change deletes the vector in the same statement (drizzle/0010), so a corrected
 * fact is never found by its old meaning.
 */
export const factVectors = sqliteTable("fact_vectors", {
  factId: text("fact_id")
    .primaryKey()
    .references(() => facts.id, { onDelete: "cascade" }),
  model: text("model").notNull(),
  embedding: vector("embedding").notNull(),
  madeAt: text("made_at").notNull(),
});

/**
 * Facts whose vector is still to be made: filled by triggers on every insert and
 * body change (drizzle/0010), whoever writes, and emptied by the embedder
 * (lib/embeddings/embedder.ts) once the provider answered.
 */
export const factVectorsDue = sqliteTable("fact_vectors_due", {
  factId: text("fact_id")
    .primaryKey()
    .references(() => facts.id, { onDelete: "cascade" }),
  since: text("since").notNull().default(now),
});

// --- The agent API ---

/**
 * Requests per agent key in the current fixed window, kept in the database so the
 * limit holds across every server process that shares it. One row per key.
 */
export const apiRateLimits = sqliteTable("api_rate_limits", {
  keyId: text("key_id")
    .primaryKey()
    .references(() => agentKeys.id, { onDelete: "cascade" }),
  /** The window's start, in milliseconds since the epoch. */
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

// --- Running a workspace ---

/**
 * Invitations waiting to be accepted: an owner asked (workspace, email) to join
 * with a role. An invitation is not a membership and makes no account: only
 * whoever holds its link, and is (or becomes) the account with that email,
 * accepts it, and accepting grants this workspace and nothing else. Only the
 * SHA-256 of the token is stored; the link is shown once to the owner. A row
 * lives until it is accepted, declined or cancelled.
 */
export const invites = sqliteTable(
  "workspace_invites",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** Lower-case. Whoever accepts must be signed in as this email, or create the account for it. */
    email: text("email").notNull(),
    /** The name the owner typed, offered to someone new as their account's name. */
    name: text("name"),
    role: text("role", { enum: ROLES }).notNull().default("member"),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").notNull(),
    createdAt: text("created_at").notNull().default(now),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("workspace_invites_workspace_email_idx").on(t.workspaceId, t.email),
    check("workspace_invites_role_check", sql`${t.role} in ('owner', 'member')`),
  ],
);

/**
 * What owners did, for owners to read: who, what, when. `summary` is written for
 * people and never holds the text of a fact.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    /** A person's id, or "operator" for the command line. */
    actorId: text("actor_id").notNull(),
    actorName: text("actor_name").notNull(),
    /** A short machine name such as `member.add`, `channel.rename`, `key.revoke`. */
    action: text("action").notNull(),
    /** "Max Mills", "#leadership", "scout's key “CI”": what the action was done to. */
    summary: text("summary").notNull(),
    at: text("at").notNull().default(now),
  },
  (t) => [index("audit_events_workspace_idx").on(t.workspaceId, t.id)],
);

// --- Webhooks (issue #18) ---

/**
 * Where an owner asked to hear about a workspace's fact changes. The secret signs
 * each delivery (Standard Webhooks) and is shown once; it is kept because signing
 * needs it. A run of failures disables the endpoint with the reason shown.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** The event names it wants, space-separated with a space on each side (" fact.remembered fact.purged "), for a LIKE in triggers. */
    events: text("events").notNull(),
    secret: text("secret").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** Why the sender disabled it; null when an owner did, or while enabled. */
    disabledReason: text("disabled_reason"),
    /** Failed attempts in a row; reset by any success. */
    failuresInARow: integer("failures_in_a_row").notNull().default(0),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [index("webhook_endpoints_workspace_idx").on(t.workspaceId)],
);

/**
 * One event for one endpoint, queued by triggers on fact_events and facts
 * (drizzle/0017) in the transaction that made the change, and sent by the
 * sender in lib/webhooks/sender.ts. The payload is dropped once delivered
 * (or given up), and a purge strips the text from any still waiting.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The `webhook-id`: the same on every attempt, so a receiver can drop a repeat. */
    messageId: text("message_id").notNull(),
    /** Deliveries of one fact to one endpoint go in order; null for a test event. */
    factId: text("fact_id"),
    event: text("event").notNull(),
    payload: text("payload"),
    /** "pending", "delivered" or "failed" (given up after 24 hours). */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAt: text("next_at").notNull().default(now),
    /** A sender holds the row until then; another may take it after (a sender that died). */
    claimedUntil: text("claimed_until"),
    lastCode: integer("last_code"),
    lastError: text("last_error"),
    lastAttemptAt: text("last_attempt_at"),
    createdAt: text("created_at").notNull().default(now),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_fact_idx").on(t.factId, t.endpointId, t.id).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    uniqueIndex("webhook_deliveries_message_idx").on(t.endpointId, t.messageId),
  ],
);

export type Invite = typeof invites.$inferSelect;
export type AuditEvent = typeof auditEvents.$inferSelect;

export type User = typeof users.$inferSelect;
export type Workspace = typeof workspaces.$inferSelect;
export type Membership = typeof memberships.$inferSelect;
export type Channel = typeof channels.$inferSelect;
export type Agent = typeof agents.$inferSelect;
export type AgentKey = typeof agentKeys.$inferSelect;
export type Fact = typeof facts.$inferSelect;
export type FactEvent = typeof factEvents.$inferSelect;
export type Role = (typeof ROLES)[number];
export type ChannelKind = (typeof CHANNEL_KINDS)[number];
