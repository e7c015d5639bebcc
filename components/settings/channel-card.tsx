"use client";

import { useId } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import type { AddChannelMemberState, AdminState } from "@/lib/actions/admin-states";
import { ChannelPeople } from "./channel-people";
import { FormProblem } from "./form-problem";
import { KIND_LABELS } from "./kinds";
import { useAdminAction } from "./use-admin-action";

type Person = { id: string; name: string };
export type ChannelView = { id: string; name: string; kind: keyof typeof KIND_LABELS; people: Person[]; facts: number };

type Action = (data: FormData) => Promise<AdminState>;
type Actions = {
  rename: Action;
  setKind: Action;
  addMember: (data: FormData) => Promise<AddChannelMemberState>;
  removeMember: Action;
};

/** One channel: its id for the API, its people (add, remove), and a disclosure to rename it or change its kind. */
export function ChannelCard({
  workspace,
  channel,
  members,
  actions,
}: {
  workspace: string;
  channel: ChannelView;
  /** Everyone in the workspace: who can be added. */
  members: Person[];
  actions: Actions;
}) {
  const id = useId();
  const [renameState, rename, renaming] = useAdminAction(actions.rename);
  const [kindState, setKind, settingKind] = useAdminAction(actions.setKind);
  const title = `#${channel.name}`;
  const hidden = (
    <>
      <input type="hidden" name="workspace" value={workspace} />
      <input type="hidden" name="channelId" value={channel.id} />
    </>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        {/* Focusable from script: a new channel's card takes focus once created. */}
        <h3 id={`${id}-title`} tabIndex={-1} data-channel-title={channel.name} className="font-medium">
          {title}
        </h3>
        <span className="text-xs font-medium uppercase tracking-wide text-slate-500">{KIND_LABELS[channel.kind]}</span>
      </div>
      <p className="text-xs text-slate-500">
        Id for the API: <code aria-label={`Id of ${title}`} className="select-all break-all font-mono text-slate-700">{channel.id}</code>
      </p>

      <ChannelPeople
        workspace={workspace}
        channel={channel}
        members={members}
        addMember={actions.addMember}
        removeMember={actions.removeMember}
      />

      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-brand-700">Rename or change kind</summary>
        <div className="mt-3 flex flex-col gap-4">
          <form action={rename} className="flex flex-wrap items-end gap-2">
            {hidden}
            <Field label={`New name for ${title}`} id={`${id}-name`} name="name" defaultValue={channel.name} required maxLength={81} />
            <Button type="submit" variant="secondary" disabled={renaming}>
              Rename
            </Button>
          </form>
          <FormProblem state={renameState} label="Rename problem" />
          <form action={setKind} className="flex flex-wrap items-end gap-2">
            {hidden}
            <Select label={`Kind of ${title}`} id={`${id}-kind`} name="kind" defaultValue={channel.kind}>
              {Object.entries(KIND_LABELS).map(([kind, label]) => (
                <option key={kind} value={kind}>
                  {label}
                </option>
              ))}
            </Select>
            <Button type="submit" variant="secondary" disabled={settingKind}>
              Save kind
            </Button>
          </form>
          <FormProblem state={kindState} label="Kind problem" />
          <p className="text-xs text-slate-500">
            A change decides who sees this channel&apos;s facts, and where they are recalled, from the next request on.
          </p>
        </div>
      </details>
    </section>
  );
}
