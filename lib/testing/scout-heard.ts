/**
 * The demo's Scout keeping a fact it heard, as tests write one straight to the data
 * layer: the same dozen fields each time but for the text, where it is kept and
 * where it was said. Only what a test varies is passed.
 */
import type { Conn } from "@/db/client";
import { remember, type NewFact } from "@/lib/memory/writes";

export type Heard = {
  scope: NewFact["scope"];
  ref: string;
  /** The scope's label as the app stores it ("#support", "Ana Alves"). */
  label: string | null;
  /** The channel it was said in, and how its source reads ("@ana in #support"). */
  in: string;
  from: string;
} & Pick<NewFact, "proposal">;

export function scoutHeard(db: Conn, body: string, heard: Heard) {
  return remember(db, {
    agentId: "scout",
    workspaceId: "acme",
    body,
    scope: heard.scope,
    scopeRef: heard.ref,
    scopeLabel: heard.label,
    source: { kind: "message", ref: null, label: heard.from, channelId: heard.in },
    by: { kind: "agent", id: "scout", name: "Scout" },
    pinned: false,
    ...(heard.proposal ? { proposal: heard.proposal } : {}),
  });
}
