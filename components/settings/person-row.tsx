"use client";

import { startTransition, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Select } from "@/components/ui/select";
import type { AdminState } from "@/lib/actions/admin-states";
import { FormProblem } from "./form-problem";
import { useAdminAction } from "./use-admin-action";

export type PersonView = {
  id: string;
  name: string;
  email: string;
  role: "owner" | "member";
  isYou: boolean;
  /** The workspace's only owner: their role and membership can't change. */
  lastOwner: boolean;
  /** How many facts agents here keep just for them: the count only, never the text. */
  personFacts: number;
};

type Actions = {
  changeRole: (data: FormData) => Promise<AdminState>;
  remove: (data: FormData) => Promise<AdminState>;
};

/** One person: their role (select, then Save), and Remove. */
export function PersonRow({ workspace, workspaceName, person, actions }: { workspace: string; workspaceName: string; person: PersonView; actions: Actions }) {
  const row = useRef<HTMLLIElement>(null);
  const [roleState, changeRole, changing] = useAdminAction(actions.changeRole, () => row.current);
  const [removeState, remove, removing] = useAdminAction(actions.remove, () => document.getElementById("people-heading"));
  const [confirming, setConfirming] = useState(false);
  const [eraseFacts, setEraseFacts] = useState(false);
  const id = useId();
  const noteId = `${id}-last-owner`;
  const locked = person.lastOwner;

  function confirmRemove() {
    setConfirming(false);
    const data = new FormData();
    data.set("workspace", workspace);
    data.set("userId", person.id);
    if (eraseFacts && person.personFacts > 0) data.set("eraseFacts", "on");
    startTransition(() => remove(data));
  }

  return (
    // Focusable from script: focus lands on the row after its role is saved.
    <li ref={row} tabIndex={-1} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" aria-label={person.name}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">
            {person.name}
            {person.isYou ? <span className="ml-2 text-xs font-normal text-slate-500">(you)</span> : null}
          </p>
          <p className="break-all text-sm text-slate-600">{person.email}</p>
        </div>
        <span className="text-xs font-medium uppercase tracking-wide text-slate-500">{person.role}</span>
      </div>
      <div className="flex flex-wrap items-end gap-3">
        <form action={changeRole} className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="workspace" value={workspace} />
          <input type="hidden" name="userId" value={person.id} />
          <Select
            label={`Role of ${person.name}`}
            id={`${id}-role`}
            name="role"
            hideLabel
            defaultValue={person.role}
            disabled={locked}
            aria-describedby={locked ? noteId : undefined}
          >
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </Select>
          <Button type="submit" variant="secondary" disabled={locked || changing} aria-describedby={locked ? noteId : undefined}>
            Save role
          </Button>
        </form>
        <Button
          type="button"
          variant="ghost"
          className="text-red-700"
          disabled={locked || removing}
          aria-describedby={locked ? noteId : undefined}
          onClick={() => setConfirming(true)}
        >
          Remove
        </Button>
      </div>
      {locked ? (
        <p id={noteId} className="text-sm text-slate-600">
          {person.isYou ? "You are" : `${person.name} is`} the only owner of {workspaceName}, so this role can&apos;t change.
          Make someone else an owner first.
        </p>
      ) : null}
      <FormProblem state={roleState} label="Role problem" />
      <FormProblem state={removeState} label="Remove problem" />
      <ConfirmDialog
        open={confirming}
        title={`Remove ${person.name}?`}
        confirmLabel="Remove"
        onConfirm={confirmRemove}
        onCancel={() => setConfirming(false)}
      >
        <p>
          {person.name} leaves {workspaceName} and every channel in it at once, so they no longer see its facts.
          Facts kept just for them stay theirs, and come back to them if they are added again
          {person.personFacts > 0 ? ", unless you erase them" : ""}.
        </p>
        {person.personFacts > 0 ? (
          <label className="mt-3 flex items-start gap-2">
            <input
              type="checkbox"
              className="mt-1"
              checked={eraseFacts}
              onChange={(event) => setEraseFacts(event.target.checked)}
            />
            <span>
              Also erase what agents keep just for them ({person.personFacts} {person.personFacts === 1 ? "fact" : "facts"}).
              They go at once with their history, not through Recently forgotten; no one can restore them.
            </span>
          </label>
        ) : null}
      </ConfirmDialog>
    </li>
  );
}
