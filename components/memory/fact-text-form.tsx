"use client";

/**
 * A fact's text edited in place: the card's Edit and the Inbox's "Edit and approve"
 * are this one form, so both answer the same way — the instruction-like warning
 * with "Keep it anyway", problems on the form, Esc and Cancel to leave, and, where
 * the action says the fact changed meanwhile (stale), the current text to decide on.
 * The edit names the version it started from; the caller's action does the rest.
 */
import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import type { FactActionState } from "@/lib/actions/memory-states";
import { FactTextArea } from "./fact-text-area";
import { InstructionWarning } from "./instruction-warning";
import { UntilField } from "./until-field";
import { TRY_AGAIN } from "./action-problem";

export type FactTextSubmit = (input: {
  text: string;
  version: number;
  confirm: boolean;
  /** The Until field's day when it was changed ("" for no end), else undefined: the end stays. */
  validUntil?: string;
}) => Promise<FactActionState>;

export function FactTextForm({
  name,
  body,
  version: startVersion,
  until: startUntil,
  submitWords,
  submit,
  onSaved,
  onCancel,
  className,
}: {
  /** The form's accessible name ("Edit fact", "Edit and approve"). */
  name: string;
  body: string;
  version: number;
  /** The fact's last day ("" for none) to show the Until field with; left out, no Until field. */
  until?: string;
  /** The submit button's words, idle and while it works: ["Save", "Saving…"]. */
  submitWords: [string, string];
  submit: FactTextSubmit;
  onSaved: (text: string) => void;
  onCancel: () => void;
  className?: string;
}) {
  const [text, setText] = useState(body);
  const [until, setUntil] = useState(startUntil ?? "");
  const [version, setVersion] = useState(startVersion);
  const [conflict, setConflict] = useState<{ body: string; version: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The server's instruction-like warning, for the text it was given: typing on takes it away.
  const [warned, setWarned] = useState<{ text: string; message: string } | null>(null);
  const [pending, start] = useTransition();
  const warningId = useId();
  const warning = warned && warned.text === text ? warned.message : null;

  function save(confirm = false) {
    setError(null);
    setWarned(null);
    start(async () => {
      // Only a changed day is sent: one that passed while the page was open is not refused for being past.
      const validUntil = startUntil === undefined || until === startUntil ? undefined : until;
      const result = await submit({ text, version, confirm, validUntil });
      if (result.status === "success") return onSaved(text);
      if (result.status === "stale") return setConflict(result.current);
      if (result.status === "warning") return setWarned({ text, message: result.message });
      setError(result.status === "idle" ? TRY_AGAIN : result.message);
    });
  }

  return (
    <form
      className={className ?? "flex min-w-0 flex-col gap-2"}
      aria-label={name}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <FactTextArea label="Fact text" value={text} onChange={setText} autoFocus describedBy={warningId} />
      <InstructionWarning
        id={warningId}
        message={warning}
        keep={{ type: "button", onClick: () => save(true), disabled: pending || conflict !== null }}
      />
      {startUntil !== undefined ? <UntilField value={until} onChange={setUntil} /> : null}
      {conflict ? (
        <div role="alert" aria-label="Edit conflict" className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          <p className="font-medium">Someone changed this fact while you were editing it. It now reads:</p>
          <blockquote className="my-2 border-l-4 border-amber-300 pl-3">{conflict.body}</blockquote>
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="secondary"
              onClick={() => {
                setText(conflict.body);
                setVersion(conflict.version);
                setConflict(null);
              }}
            >
              Use their text
            </Button>
            <Button
              type="button"
              variant="secondary"
              onClick={() => {
                setVersion(conflict.version);
                setConflict(null);
              }}
            >
              Keep mine and edit on
            </Button>
          </div>
        </div>
      ) : null}
      {error ? (
        <p role="alert" aria-label="Edit problem" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending || conflict !== null}>
          {pending ? submitWords[1] : submitWords[0]}
        </Button>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
