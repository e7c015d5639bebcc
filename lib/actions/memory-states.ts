/** The small typed answers of the Memory page's server actions: what the page needs, never a row. */
export type FactActionState =
  | { status: "idle" }
  /** `factId`: the fact an Add kept, for the page to move focus to its card. */
  | { status: "success"; message: string; factId?: string }
  | { status: "stale"; message: string; current: { body: string; version: number } }
  /** Nothing kept: the text reads like an instruction to the agent; sending it again with `confirm` keeps it. */
  | { status: "warning"; message: string; why: string }
  | { status: "failed" | "invalid_data"; message: string };

export type HistoryEntry = {
  kind: string;
  actorName: string;
  actorKind: string;
  before: string | null;
  after: string | null;
  /** Where an agent made the change ("@ana in #support"); null for people's changes on the Memory page. */
  placeLabel: string | null;
  at: string;
};

export type HistoryState =
  | { status: "success"; events: HistoryEntry[] }
  | { status: "failed" | "invalid_data"; message: string };
