"use client";

import { useEffect, useState } from "react";
import { RelativeTime } from "@/components/ui/relative-time";
import type { HistoryEntry } from "@/lib/actions/memory-states";
import { useMemory } from "./memory-context";

const VERBS: Record<string, string> = {
  remember: "remembered it",
  correct: "corrected it",
  pin: "pinned it",
  unpin: "unpinned it",
  forget: "forgot it",
  restore: "restored it",
  replace: "replaced an older fact",
};

/** Events that change the text: shown as was → now. */
const CHANGES_TEXT = new Set(["correct", "replace", "approve"]);

/** Where a change was made: an agent's event names the conversation; a person changes facts on this page. */
function whereOf(event: HistoryEntry): string | null {
  if (event.placeLabel) return event.placeLabel;
  return event.actorKind === "user" && CHANGES_TEXT.has(event.kind) ? "on the Memory page" : null;
}

/**
 * Every change of a fact, oldest first, loaded when opened (and again after the fact changes): a timeline
 * in which each change of its text reads "was → now", with who changed it and where. A fact that replaced
 * others carries their changes too, so the chain reads from the first fact on.
 */
export function FactHistory({ factId, version, pinned }: { factId: string; version: number; pinned: boolean }) {
  const { actions, workspace, agent, now } = useMemory();
  const [events, setEvents] = useState<HistoryEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void actions.factHistory({ workspace, agent, factId }).then((result) => {
      if (!live) return;
      if (result.status === "success") setEvents(result.events);
      else setError(result.message);
    });
    return () => {
      live = false;
    };
  }, [actions, workspace, agent, factId, version, pinned]);

  if (error) return <p className="text-sm text-red-700">{error}</p>;
  if (!events) return <p className="text-sm text-slate-500">Loading history…</p>;
  return (
    <ol aria-label="History" className="flex flex-col gap-2 border-t border-slate-100 pt-2 text-sm">
      {events.map((event, i) => {
        const where = whereOf(event);
        const changed = CHANGES_TEXT.has(event.kind) && event.before !== null && event.after !== null && event.before !== event.after;
        return (
          <li key={i} className="flex flex-col gap-0.5 border-l-2 border-slate-200 pl-3">
            <p>
              <span className="font-medium">{event.actorName}</span> {VERBS[event.kind] ?? event.kind}
              {where ? <span className="text-slate-600">, {where}</span> : null}{" "}
              <span className="text-slate-500">
                <RelativeTime iso={event.at} now={now} />
              </span>
            </p>
            {changed ? (
              <p className="text-xs text-slate-600">
                was <del className="text-red-700">{event.before}</del> → now{" "}
                <ins className="text-green-800 no-underline">{event.after}</ins>
              </p>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
