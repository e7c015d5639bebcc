"use client";

/**
 * "Looks like …" on a fact that reads almost like an older one of the same scope
 * (issue #15: look-alikes are surfaced, never merged silently). People who may change
 * both facts choose: Replace the older one (it is retired into this fact's history),
 * Keep both (the hint goes), or Forget this one (the card's own Forget, with Undo).
 */
import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { useToast } from "@/components/ui/toast";
import { useMemory } from "./memory-context";
import { TRY_AGAIN } from "./action-problem";

/** An older fact this one looks like: its id and text, as the person may see it. */
export type LookAlikeView = { id: string; body: string };

/** The older fact's text, cut to fit a line: the card itself shows the new one in full. */
function shortened(body: string): string {
  return body.length > 100 ? `${body.slice(0, 99)}…` : body;
}

export function LookAlikeNote({
  factId,
  lookAlike,
  canChange,
  onForget,
}: {
  factId: string;
  lookAlike: LookAlikeView;
  canChange: boolean;
  /** Opens the card's Forget confirmation for the new fact. */
  onForget: () => void;
}) {
  const { actions, workspace, agent } = useMemory();
  const toast = useToast();
  const [pending, start] = useTransition();
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const textId = useId();
  const target = { workspace, agent, factId, otherId: lookAlike.id };

  function run(action: typeof actions.keepBoth) {
    setConfirming(false);
    setError(null);
    start(async () => {
      const result = await action(target);
      if (result.status !== "success") {
        setError("message" in result ? result.message : TRY_AGAIN);
        return;
      }
      setDone(true);
      toast({ message: result.message, tone: "info" });
    });
  }

  if (done) return null;

  return (
    <div role="note" aria-labelledby={textId} className="flex flex-col gap-2 rounded-md bg-sky-50 p-3 text-sm text-sky-950">
      <p id={textId}>
        Looks like <q className="italic">{shortened(lookAlike.body)}</q>
      </p>
      {canChange ? (
        <div className="flex flex-wrap gap-1">
          <Button variant="secondary" className="min-h-8 px-3 text-xs" disabled={pending} onClick={() => setConfirming(true)}>
            Replace the older one
          </Button>
          <Button variant="ghost" className="min-h-8 px-3 text-xs" disabled={pending} onClick={() => run(actions.keepBoth)}>
            Keep both
          </Button>
          <Button variant="ghost" className="min-h-8 px-3 text-xs text-red-700" disabled={pending} onClick={onForget}>
            Forget this one
          </Button>
        </div>
      ) : null}
      {error ? (
        <p role="alert" aria-label="Look-alike problem" className="text-red-700">
          {error}
        </p>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Replace the older fact?"
        confirmLabel="Replace"
        onConfirm={() => run(actions.replaceOlder)}
        onCancel={() => setConfirming(false)}
      >
        <blockquote className="mb-3 border-l-4 border-slate-300 pl-3 italic">{lookAlike.body}</blockquote>
        <p>Agents stop recalling it at once. Its text and history move to this fact&apos;s History.</p>
      </ConfirmDialog>
    </div>
  );
}
