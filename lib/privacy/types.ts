/**
 * The shapes of "everything kept about a person" (issue #16), shared by the
 * "Your data" page, the JSON download, erasure and account deletion, so each
 * says the same thing the same way. Items are snake_case: they are also the
 * download's documented shape (DEPLOY.md's "Your data" section).
 */

/** The four lists of "Your data". A fact can be in more than one (told by you, kept just for you). */
export const ABOUT_LISTS = ["kept", "told", "from_messages", "events"] as const;
export type AboutList = (typeof ABOUT_LISTS)[number];
export type AboutCounts = Record<AboutList, number>;

export type WorkspaceRef = { id: string; name: string };
export type AgentRef = { id: string; handle: string; name: string };

/** One fact about or from the person, as they may see it. */
export type AboutFact = {
  id: string;
  workspace: WorkspaceRef;
  agent: AgentRef;
  body: string;
  scope: "workspace" | "channel" | "person";
  /** A channel fact's channel as this person knows it ("#support", "Your DM", "DM with Ana Alves"); a person fact's person; null for the workspace. */
  scope_label: string | null;
  source_label: string | null;
  /** "forgotten": in Recently forgotten (restorable for 7 days); "proposed": waiting for a person's decision. */
  status: "live" | "proposed" | "forgotten";
  created_at: string;
  updated_at: string;
  valid_until: string | null;
};

/** One history event the person caused, on a fact they may still see. */
export type AboutEvent = {
  id: number;
  fact_id: string;
  workspace: WorkspaceRef;
  agent: AgentRef;
  kind: string;
  before: string | null;
  after: string | null;
  at: string;
};

export type Page<Item> = { items: Item[]; page: number; pages: number; total: number };

/** How many facts of one agent an erasure takes (never their text: owners see this too). */
export type AgentErasure = { workspace: WorkspaceRef; agent: AgentRef; facts: number };

/** What account deletion writes where a deleted person's name was. */
export const FORMER_MEMBER = "a former member";
