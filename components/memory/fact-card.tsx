"use client";

import { useId, useOptimistic, useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { factElement, focusSoon } from "@/components/ui/focus-soon";
import { RelativeTime } from "@/components/ui/relative-time";
import { useToast } from "@/components/ui/toast";
import { dayInWords } from "@/lib/day-words";
import { recallUsageInWords } from "@/lib/memory/usage-words";
import { FactHistory } from "./fact-history";
import { FactTextForm } from "./fact-text-form";
import { LiveMark, useLiveMark } from "./live-updates";
import { LookAlikeNote, type LookAlikeView } from "./look-alike-note";
import { useMemory } from "./memory-context";
import { messageOf } from "./action-problem";

/** One fact as the page shows it: only what the person may see, and whether they may change it. */
export type FactView = {
  id: string;
  body: string;
  scope: "workspace" | "channel" | "person";
  /** "#support" for a channel fact. */
  channelLabel: string | null;
  /** The agent's name, or "Told by Olivia Owen". */
  keptBy: string;
  sourceLabel: string | null;
  corrected: boolean;
  pinned: boolean;
  version: number;
  updatedAt: string;
  /** How often agents recalled it, and when last (null: never). */
  recalledCount: number;
  lastRecalledAt: string | null;
  /** The last day it holds ("YYYY-MM-DD", UTC), or null for no end. */
  validUntil: string | null;
  canChange: boolean;
  /** Older facts of its scope it reads almost like (look-alike-pairs.ts), best first. */
  lookAlikes?: LookAlikeView[];
  /** Who last changed it, when someone other than the viewer did (for the live marks). */
  changedBy?: string | null;
  /** Why it is not recalled in the place the person is looking at (beyond the recall limit), or null. */
  notRecalled?: string | null;
};

export function FactCard({ fact }: { fact: FactView }) {
  const { actions, workspace, agent, now } = useMemory();
  const toast = useToast();
  const [pinned, setOptimisticPinned] = useOptimistic(fact.pinned);
  const [hidden, setHidden] = useState(false);
  const [editing, setEditing] = useState(false);
  const [showHistory, setShowHistory] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A new version of the fact (restored, changed by anyone) shows again: a card hidden by a Forget is not that fact any more.
  const [shownVersion, setShownVersion] = useState(fact.version);
  if (shownVersion !== fact.version) {
    setShownVersion(fact.version);
    setHidden(false);
  }
  const [pinPending, startPin] = useTransition();
  const [forgetPending, startForget] = useTransition();
  const bodyId = useId();
  const cardRef = useRef<HTMLLIElement>(null);
  const mark = useLiveMark(fact);
  const target = { workspace, agent, factId: fact.id };
  const short = fact.body.length > 80 ? `${fact.body.slice(0, 79)}…` : fact.body;

  function togglePin() {
    // aria-disabled, not disabled, while pending: a disabled button drops focus to the page.
    if (pinPending) return;
    setError(null);
    // Focus stays on Pin/Unpin, also when the refreshed card replaces this one.
    focusSoon(() => factElement(fact.id, "pin"), {
      // Tab on to Edit before the refreshed card arrives: focus stays on Edit in the new card.
      follow: (moved) => {
        const control = moved.dataset.focus;
        const inCard = factElement(fact.id)?.contains(moved);
        return inCard && (control === "edit" || control === "pin") ? () => factElement(fact.id, control) : null;
      },
    });
    startPin(async () => {
      setOptimisticPinned(!pinned);
      const result = await actions.pinFact({ ...target, pinned: !pinned });
      if (result.status !== "success") setError(messageOf(result));
    });
  }

  /** One step: an undoable Forget asks nothing; focus goes on to the next card and the toast offers Undo. */
  function forget() {
    setError(null);
    const next = nextFocus(cardRef.current);
    setHidden(true);
    if (next) focusSoon(() => (next.isConnected ? next : null));
    startForget(async () => {
      const result = await actions.forgetFact(target);
      if (result.status !== "success") {
        setHidden(false);
        setError(messageOf(result));
        return;
      }
      toast({
        message: `Forgot “${short}”.`,
        tone: "info",
        action: {
          label: "Undo",
          run: () => {
            void actions.restoreFact(target).then((undo) => {
              if (undo.status !== "success") return toast({ message: messageOf(undo), tone: "error" });
              // Undone before the refreshed list dropped this card: it is the card that shows the fact again.
              setHidden(false);
              focusSoon(() => factElement(fact.id));
            });
          },
        },
      });
    });
  }

  if (hidden) return null;

  return (
    <li
      ref={cardRef}
      aria-labelledby={bodyId}
      // Focusable from script only: focus lands here after Add, Undo and Restore, and on the next card after Forget.
      tabIndex={-1}
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm outline-offset-2 focus-visible:outline-2 focus-visible:outline-brand-600"
      data-fact-id={fact.id}
    >
      <div className="flex items-start gap-2">
        {pinned ? (
          <span role="img" aria-label="Pinned" title="Pinned: recalled before unpinned facts" className="mt-1 text-amber-600">
            <PinIcon />
          </span>
        ) : null}
        {editing ? (
          <EditFact
            fact={fact}
            onDone={() => {
              setEditing(false);
              // Back to the Edit button that opened it, on this card or the refreshed one that replaces it.
              focusSoon(() => factElement(fact.id, "edit"));
            }}
          />
        ) : (
          <p id={bodyId} className="min-w-0 flex-1 break-words whitespace-pre-wrap text-slate-900">
            {fact.body}
          </p>
        )}
        <LiveMark mark={mark} />
      </div>

      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
        {fact.channelLabel ? (
          <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700">{fact.channelLabel}</span>
        ) : null}
        <span>{fact.keptBy}</span>
        {fact.sourceLabel ? (
          <span>
            from {fact.sourceLabel}
            {fact.corrected ? " (corrected)" : ""}
          </span>
        ) : null}
        <span aria-hidden>·</span>
        <RelativeTime iso={fact.updatedAt} now={now} />
        {fact.validUntil ? (
          <>
            <span aria-hidden>·</span>
            <span title="Agents stop recalling it after this day (UTC)">until {dayInWords(fact.validUntil)}</span>
          </>
        ) : null}
      </p>
      <p className="text-xs text-slate-500">
        {recallUsageInWords(fact.recalledCount, fact.lastRecalledAt, now)}
      </p>
      {fact.notRecalled ? (
        <p data-not-recalled className="text-xs font-medium text-amber-800">
          {fact.notRecalled}
        </p>
      ) : null}

      {!editing
        ? fact.lookAlikes?.map((alike) => (
            <LookAlikeNote
              key={alike.id}
              factId={fact.id}
              lookAlike={alike}
              canChange={fact.canChange}
              onForget={forget}
            />
          ))
        : null}

      {error ? (
        <p role="alert" aria-label="Fact problem" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}

      <div className="flex flex-wrap gap-1">
        {fact.canChange && !editing ? (
          <>
            <Button variant="ghost" className="min-h-8 px-2 text-xs" onClick={togglePin} aria-disabled={pinPending} data-focus="pin">
              {pinned ? "Unpin" : "Pin"}
            </Button>
            <Button variant="ghost" className="min-h-8 px-2 text-xs" onClick={() => setEditing(true)} data-focus="edit">
              Edit
            </Button>
            <Button
              variant="ghost"
              className="min-h-8 px-2 text-xs text-red-700"
              onClick={forget}
              disabled={forgetPending}
            >
              Forget
            </Button>
          </>
        ) : null}
        <Button
          variant="ghost"
          className="min-h-8 px-2 text-xs"
          aria-expanded={showHistory}
          onClick={() => setShowHistory((open) => !open)}
        >
          History
        </Button>
      </div>

      {showHistory ? <FactHistory factId={fact.id} version={fact.version} pinned={pinned} /> : null}

    </li>
  );
}

/** Where focus goes when a card leaves: the next card, else the one before, else its group's heading. */
function nextFocus(card: HTMLLIElement | null): HTMLElement | null {
  if (!card) return null;
  const sibling = (card.nextElementSibling ?? card.previousElementSibling) as HTMLElement | null;
  if (sibling) return sibling;
  return card.closest("section")?.querySelector<HTMLElement>("h2") ?? null;
}

function PinIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" fill="currentColor" aria-hidden>
      <path d="M10.5 1.5 14.5 5.5 12.9 6.2 10.6 8.5 10.9 11.8 9.5 13.2 6.7 10.4 2.9 14.2 1.8 13.1 5.6 9.3 2.8 6.5 4.2 5.1 7.5 5.4 9.8 3.1Z" />
    </svg>
  );
}

/** Edit in place (fact-text-form.tsx): the text and its last day; a save names the version it started from. */
function EditFact({ fact, onDone }: { fact: FactView; onDone: () => void }) {
  const { actions, workspace, agent } = useMemory();
  return (
    <FactTextForm
      name="Edit fact"
      body={fact.body}
      version={fact.version}
      until={fact.validUntil ?? ""}
      submitWords={["Save", "Saving…"]}
      submit={({ text, version, confirm, validUntil }) =>
        actions.correctFact({ workspace, agent, factId: fact.id, version, text, confirm, valid_until: validUntil })
      }
      onSaved={onDone}
      onCancel={onDone}
      className="flex min-w-0 flex-1 flex-col gap-2"
    />
  );
}
