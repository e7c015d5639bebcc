"use client";

import { startTransition, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Select } from "@/components/ui/select";
import type { AddChannelMemberState, AdminState } from "@/lib/actions/admin-states";
import { FormProblem } from "./form-problem";
import { useAdminAction } from "./use-admin-action";

type Person = { id: string; name: string };
type Channel = { id: string; name: string; kind: "public" | "private" | "dm"; people: Person[]; facts: number };

const factCount = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "fact" : "facts"}`;

/**
 * Who is in a channel, and adding or taking out a person. Both ask first: in a
 * private channel or DM, being added shows someone every fact kept there, so the
 * question names how many, and the server refuses an add whose number is not the
 * one it would reveal.
 */
export function ChannelPeople({
  workspace,
  channel,
  members,
  addMember,
  removeMember,
}: {
  workspace: string;
  channel: Channel;
  /** Everyone in the workspace: who can be added. */
  members: Person[];
  addMember: (data: FormData) => Promise<AddChannelMemberState>;
  removeMember: (data: FormData) => Promise<AdminState>;
}) {
  const id = useId();
  const title = `#${channel.name}`;
  const isPublic = channel.kind === "public";
  const [chosen, setChosen] = useState("");
  const [adding, setAdding] = useState<{ person: Person; facts: number } | null>(null);
  const [leaving, setLeaving] = useState<Person | null>(null);
  // After Add or Remove, focus is on this list's heading, which says the new count.
  const heading = useRef<HTMLHeadingElement>(null);
  const [addState, add, addPending] = useAdminAction(async (data: FormData) => {
    const state = await addMember(data);
    const person = members.find((m) => m.id === data.get("userId"));
    // The count changed since the page was drawn (or was never asked): ask again with the server's number.
    if ("confirmFacts" in state && person) setAdding({ person, facts: state.confirmFacts });
    if (state.status === "success") setChosen("");
    return state;
  }, () => heading.current);
  const [removeState, remove, removePending] = useAdminAction(removeMember, () => heading.current);
  const inChannel = new Set(channel.people.map((p) => p.id));
  const addable = members.filter((m) => !inChannel.has(m.id));

  function send(action: (data: FormData) => void, userId: string, confirmedFacts?: number) {
    const data = new FormData();
    data.set("workspace", workspace);
    data.set("channelId", channel.id);
    data.set("userId", userId);
    if (confirmedFacts !== undefined) data.set("confirmedFacts", String(confirmedFacts));
    startTransition(() => action(data));
  }

  function onAdd(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const person = addable.find((m) => m.id === chosen);
    if (!person) return;
    // A public channel is read by every member already: adding changes no one's view of its facts.
    if (isPublic) send(add, person.id);
    else setAdding({ person, facts: channel.facts });
  }

  return (
    <div className="flex flex-col gap-2">
      <h4 ref={heading} tabIndex={-1} className="text-sm font-medium text-slate-800">People ({channel.people.length})</h4>
      {channel.people.length === 0 ? (
        <p className="text-sm text-slate-600">No one yet.</p>
      ) : (
        <ul className="flex flex-col gap-1" aria-label={`People in ${title}`}>
          {channel.people.map((person) => (
            <li key={person.id} className="flex items-center justify-between gap-2 text-sm">
              <span>{person.name}</span>
              <Button
                type="button"
                variant="ghost"
                disabled={removePending}
                onClick={() => setLeaving(person)}
              >
                {/* The name is the visible words and then the place, so voice control's "Remove …" finds it. */}
                Remove {person.name}<span className="sr-only"> from {title}</span>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <FormProblem state={removeState} label="Remove problem" />
      {addable.length ? (
        <form onSubmit={onAdd} className="flex flex-wrap items-end gap-2">
          <Select
            label={`Add a person to ${title}`}
            id={`${id}-add`}
            name="userId"
            required
            value={chosen}
            onChange={(event) => setChosen(event.target.value)}
          >
            <option value="" disabled>
              Choose a person…
            </option>
            {addable.map((person) => (
              <option key={person.id} value={person.id}>
                {person.name}
              </option>
            ))}
          </Select>
          <Button type="submit" variant="secondary" disabled={addPending}>
            Add
          </Button>
        </form>
      ) : null}
      <FormProblem state={addState} label="Add to channel problem" />

      <ConfirmDialog
        open={adding !== null}
        title={`Add ${adding?.person.name} to ${title}?`}
        confirmLabel={adding?.facts ? `Add and show ${factCount(adding.facts)}` : `Add ${adding?.person.name}`}
        onConfirm={() => {
          if (adding) send(add, adding.person.id, adding.facts);
          setAdding(null);
        }}
        onCancel={() => setAdding(null)}
      >
        <p>
          {adding?.facts
            ? `${adding.person.name} will be able to see ${factCount(adding.facts)} kept in ${title}, and every fact kept there from now on.`
            : `${adding?.person.name} will be able to see every fact kept in ${title} from now on. There are none yet.`}
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={leaving !== null}
        title={`Remove ${leaving?.name} from ${title}?`}
        confirmLabel="Remove"
        onConfirm={() => {
          if (leaving) send(remove, leaving.id);
          setLeaving(null);
        }}
        onCancel={() => setLeaving(null)}
      >
        <p>{leaveMessage(title, isPublic, channel.facts)}</p>
      </ConfirmDialog>
    </div>
  );
}

function leaveMessage(title: string, isPublic: boolean, facts: number): string {
  if (isPublic) return `${title} is public: they will still see its facts, as every member of the workspace does.`;
  if (!facts) return `They will stop seeing the facts kept in ${title} from now on.`;
  return `They will stop seeing its ${factCount(facts)}, and they will no longer be recalled for them.`;
}
