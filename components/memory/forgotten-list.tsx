"use client";

import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { factElement, focusSoon } from "@/components/ui/focus-soon";
import { useToast } from "@/components/ui/toast";
import { useMemory } from "./memory-context";

export type ForgottenView = { id: string; body: string; forgottenAt: string; purgeOn: string };

/** Facts forgotten in the last 7 days that this person may change: restore them, or forget them for good. */
export function ForgottenList({ facts }: { facts: ForgottenView[] }) {
  if (!facts.length) return <p className="text-sm text-slate-600">Nothing forgotten in the last 7 days.</p>;
  return (
    <ul className="flex flex-col gap-2" aria-label="Recently forgotten facts">
      {facts.map((fact) => (
        <ForgottenItem key={fact.id} fact={fact} />
      ))}
    </ul>
  );
}

function ForgottenItem({ fact }: { fact: ForgottenView }) {
  const { actions, workspace, agent } = useMemory();
  const toast = useToast();
  const [pending, start] = useTransition();
  const [confirming, setConfirming] = useState(false);
  const target = { workspace, agent, factId: fact.id };

  function run(action: typeof actions.restoreFact) {
    start(async () => {
      const result = await action(target);
      if (result.status !== "success") toast({ message: "message" in result ? result.message : "Try again.", tone: "error" });
      // A restored fact's card is where the person's attention goes next (when this view shows it).
      else if (action === actions.restoreFact) focusSoon(() => factElement(fact.id));
      else focusSoon(() => document.getElementById("forgotten-heading"));
    });
  }

  return (
    <li className="flex flex-col gap-2 rounded-md border border-dashed border-slate-300 bg-white/60 p-3 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="break-words text-slate-700 line-through decoration-slate-400">{fact.body}</p>
        <p className="text-xs text-slate-500">Deleted for good on {fact.purgeOn}</p>
      </div>
      <div className="flex shrink-0 gap-1">
        <Button variant="secondary" className="min-h-8 px-3 text-xs" disabled={pending} onClick={() => run(actions.restoreFact)}>
          Restore
        </Button>
        <Button variant="ghost" className="min-h-8 px-3 text-xs text-red-700" disabled={pending} onClick={() => setConfirming(true)}>
          Forget permanently
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title="Forget this fact for good?"
        confirmLabel="Forget permanently"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          run(actions.purgeFact);
        }}
      >
        <blockquote className="mb-3 border-l-4 border-slate-300 pl-3 italic">{fact.body}</blockquote>
        <p>The fact and its history are deleted now. This can&apos;t be undone.</p>
      </ConfirmDialog>
    </li>
  );
}
