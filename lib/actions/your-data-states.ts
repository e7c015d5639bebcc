/**
 * The small typed answers of the "Your data" page's actions (app/(app)/you/data):
 * counts and names the person may see about themselves, never fact text nor a row.
 */

/** How many facts kept just for the person one agent holds, in one workspace. */
export type AgentCount = { workspace: string; agent: string; count: number };

export type EraseState =
  | { status: "idle" }
  /** The dry run: what confirming would remove, per agent. `workspace` is "" for everywhere. */
  | { status: "preview"; workspace: string; agents: AgentCount[]; total: number }
  | { status: "success"; message: string }
  | { status: "failed" | "invalid_data"; message: string };

/** A workspace in the account-deletion answer, by id and the name shown. */
export type WorkspaceNamed = { id: string; name: string };

export type DeleteAccountPreview = {
  /** Facts kept just for the person: erased with the account. */
  personFacts: number;
  /** Facts whose source names the person, and history events they caused, that stay: named "a former member". */
  renamedFacts: number;
  renamedEvents: number;
  /** Facts the person told a workspace others are in: they stay with it. */
  toldFactsStay: number;
  /** Workspaces where they are the only person: deleted with the account once their names are typed. */
  soloWorkspaces: WorkspaceNamed[];
  /** Workspaces where they are the last owner and others remain: deletion is refused until someone else owns them. */
  lastOwnerOf: WorkspaceNamed[];
};

export type DeleteAccountState =
  | { status: "idle" }
  | ({ status: "preview" } & DeleteAccountPreview)
  /** Refused: the message, the preview still shown, and which typed names did not match (by workspace id). */
  | ({ status: "failed"; message: string; wrongNames: string[] } & DeleteAccountPreview)
  | { status: "failed" | "invalid_data"; message: string };
