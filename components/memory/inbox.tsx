"use client";

/**
 * The Inbox: an agent's proposals this person may decide (owners for workspace
 * facts, a channel's readers for its facts), with who proposed each, from where,
 * and why it waits — Approve, Edit and approve, or Decline. The page hands it
 * only what the person may decide, so nothing else ever reaches the browser.
 * After each decision the focus moves to the next proposal (or the heading when
 * none is left) and a polite live region says what happened.
 */
import { useEffect, useId, useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { RelativeTime } from "@/components/ui/relative-time";
import type { FactActionState } from "@/lib/actions/memory-states";
import { MAX_DECLINE_REASON } from "@/lib/validation/fields";
import { FactTextForm } from "./fact-text-form";
import { useMemory } from "./memory-context";
import { messageOf } from "./action-problem";

/** One proposal as the Inbox shows it: only what its decider may see. */
export type ProposalView = {
  id: string;
  body: string;
  version: number;
  scope: "workspace" | "channel" | "person";
  /** "#general" for a channel fact. */
  channelLabel: string | null;
  /** Who proposed it: the agent's name. */
  proposedBy: string;
  /** Where it came from, as the fact card says it ("#general", "a session"), or null. */
  sourceLabel: string | null;
  proposedAt: string;
  /** Why it waits, in words: the agent's setting, or the instruction detector's reason. */
  waits: { kind: "setting"; words: string } | { kind: "instruction"; why: string };
};

type Target = { workspace: string; agent: string; factId: string };

export type InboxActions = {
  approve: (input: Target & { version?: number; text?: string; confirm?: boolean }) => Promise<FactActionState>;
  decline: (input: Target & { reason?: string }) => Promise<FactActionState>;
};

const short = (body: string) => (body.length > 60 ? `${body.slice(0, 59)}…` : body);
const itemId = (id: string) => `proposal-${id}`;

export function Inbox({ proposals, actions }: { proposals: ProposalView[]; actions: InboxActions }) {
  const [decided, setDecided] = useState<Set<string>>(() => new Set());
  const [said, setSaid] = useState("");
  // Where the focus goes after a decision: a proposal's id, or "heading".
  const focusNext = useRef<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shown = proposals.filter((p) => !decided.has(p.id));

  // After the render that took the decided proposal away, so the element to focus exists.
  useEffect(() => {
    const next = focusNext.current;
    if (!next) return;
    focusNext.current = null;
    const target = next === "heading" ? headingRef.current : document.getElementById(itemId(next));
    (target ?? headingRef.current)?.focus();
  });

  // Only for people who may decide something; it stays (saying so) once they have decided the last one here.
  if (proposals.length === 0 && decided.size === 0) return null;

  function onDecided(id: string, message: string) {
    const index = shown.findIndex((p) => p.id === id);
    const next = shown[index + 1] ?? shown[index - 1];
    setDecided((all) => new Set(all).add(id));
    setSaid(message);
    focusNext.current = next ? next.id : "heading";
  }

  return (
    <section id="inbox" aria-labelledby="inbox-heading" className="flex flex-col gap-3">
      <h2 id="inbox-heading" ref={headingRef} tabIndex={-1} className="text-lg font-semibold outline-none">
        Inbox{shown.length ? ` (${shown.length})` : ""}
      </h2>
      <p className="text-sm text-slate-600">
        {shown.length
          ? "Facts waiting for your decision. Agents never recall them until someone approves them."
          : "Nothing waits for your decision now."}
      </p>
      <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {said}
      </p>
      {shown.length ? (
        <ul className="flex flex-col gap-2" aria-label="Proposals">
          {shown.map((proposal) => (
            <ProposalItem key={proposal.id} proposal={proposal} actions={actions} onDecided={onDecided} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function ProposalItem({
  proposal,
  actions,
  onDecided,
}: {
  proposal: ProposalView;
  actions: InboxActions;
  onDecided: (id: string, message: string) => void;
}) {
  const { workspace, agent, now } = useMemory();
  const [mode, setMode] = useState<"view" | "edit" | "decline">("view");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const bodyId = useId();
  const target = { workspace, agent, factId: proposal.id };

  function approve() {
    setError(null);
    start(async () => {
      const result = await actions.approve(target);
      if (result.status === "success") onDecided(proposal.id, `Approved “${short(proposal.body)}”.`);
      else setError(messageOf(result));
    });
  }

  return (
    <li
      id={itemId(proposal.id)}
      tabIndex={-1}
      aria-labelledby={bodyId}
      className="flex flex-col gap-2 rounded-lg border border-brand-200 bg-brand-50/40 p-4 shadow-sm outline-none focus:ring-2 focus:ring-brand-600"
      data-fact-id={proposal.id}
    >
      {/* The proposed text stays in sight while it is edited: it names the item, and the edit starts from it. */}
      <p id={bodyId} className="break-words whitespace-pre-wrap text-slate-900">
        {proposal.body}
      </p>
      {mode === "edit" ? (
        <EditAndApprove
          proposal={proposal}
          approve={actions.approve}
          onCancel={() => setMode("view")}
          onApproved={(body) => onDecided(proposal.id, `Approved “${short(body)}”, as you edited it.`)}
        />
      ) : null}
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-600">
        {proposal.channelLabel ? (
          <span className="rounded bg-slate-100 px-1.5 py-0.5 font-medium text-slate-700">{proposal.channelLabel}</span>
        ) : null}
        <span>
          Proposed by {proposal.proposedBy}
          {proposal.sourceLabel ? ` from ${proposal.sourceLabel}` : ""}
        </span>
        <span aria-hidden>·</span>
        <RelativeTime iso={proposal.proposedAt} now={now} />
      </p>
      {proposal.waits.kind === "instruction" ? (
        <p className="flex items-start gap-1.5 rounded-md bg-amber-50 px-2 py-1.5 text-sm text-amber-900">
          <span aria-hidden className="font-bold">
            !
          </span>
          <span>Reads like an instruction: {proposal.waits.why}</span>
        </p>
      ) : (
        <p className="text-sm text-slate-600">{proposal.waits.words}</p>
      )}
      {error ? (
        <p role="alert" aria-label="Proposal problem" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {mode === "decline" ? (
        <Decline
          decline={(reason) => actions.decline({ ...target, reason })}
          onCancel={() => setMode("view")}
          onDeclined={() => onDecided(proposal.id, `Declined “${short(proposal.body)}”. It is in Recently forgotten.`)}
        />
      ) : null}
      {mode === "view" ? (
        <div className="flex flex-wrap gap-1">
          <Button className="min-h-8 px-3 text-xs" onClick={approve} disabled={pending}>
            {pending ? "Approving…" : "Approve"}
          </Button>
          <Button variant="secondary" className="min-h-8 px-3 text-xs" onClick={() => setMode("edit")} disabled={pending}>
            Edit and approve
          </Button>
          <Button
            variant="ghost"
            className="min-h-8 px-3 text-xs text-red-700"
            onClick={() => setMode("decline")}
            disabled={pending}
          >
            Decline
          </Button>
        </div>
      ) : null}
    </li>
  );
}

/** The text edited in place, then approved: Edit's own form (fact-text-form.tsx), so the same rules and answers. */
function EditAndApprove({
  proposal,
  approve,
  onCancel,
  onApproved,
}: {
  proposal: ProposalView;
  approve: InboxActions["approve"];
  onCancel: () => void;
  onApproved: (body: string) => void;
}) {
  const { workspace, agent } = useMemory();
  return (
    <FactTextForm
      name="Edit and approve"
      body={proposal.body}
      version={proposal.version}
      submitWords={["Approve", "Approving…"]}
      submit={({ text, version, confirm }) => approve({ workspace, agent, factId: proposal.id, version, text, confirm })}
      onSaved={onApproved}
      onCancel={onCancel}
    />
  );
}

/** Decline, with an optional reason kept in the proposal's history. */
function Decline({
  decline,
  onCancel,
  onDeclined,
}: {
  decline: (reason?: string) => Promise<FactActionState>;
  onCancel: () => void;
  onDeclined: () => void;
}) {
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  const fieldId = useId();

  function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    start(async () => {
      const result = await decline(reason.trim() || undefined);
      if (result.status === "success") onDeclined();
      else setError(messageOf(result));
    });
  }

  return (
    <form
      onSubmit={submit}
      aria-label="Decline proposal"
      className="flex flex-col gap-2"
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <Field
        label="Reason (optional)"
        id={fieldId}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        maxLength={MAX_DECLINE_REASON}
        note="Kept in the fact's history."
        error={error ?? undefined}
        autoFocus
      />
      <div className="flex gap-2">
        <Button type="submit" variant="danger" className="min-h-9" disabled={pending}>
          {pending ? "Declining…" : "Decline"}
        </Button>
        <Button type="button" variant="secondary" className="min-h-9" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

