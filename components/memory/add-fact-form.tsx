"use client";

import { startTransition, useActionState, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { factElement, focusSoon } from "@/components/ui/focus-soon";
import type { FactActionState } from "@/lib/actions/memory-states";
import { scopeName } from "@/lib/memory/labels";
import { FactTextArea } from "./fact-text-area";
import { InstructionWarning } from "./instruction-warning";
import { useMemory } from "./memory-context";
import { UntilField } from "./until-field";

type Channel = { id: string; label: string };
type Audience = "person" | "workspace" | "channel";

/** Who the button says the fact is for: the choice made, never a default the person can't see. */
function audienceLabel(scope: Audience, channel: Channel | undefined, workspaceName: string): string | null {
  const label = scope === "channel" ? channel?.label : scopeName(scope, workspaceName);
  if (!label) return null;
  // "#support" as the page shows it; "Just you" and "Your DM" read in lower case mid-sentence.
  return label.startsWith("#") ? label : label.charAt(0).toLowerCase() + label.slice(1);
}

/** Tell the agent a fact: for yourself, a channel you can read, or (owners) the whole workspace. */
export function AddFactForm({
  channels,
  canWriteWorkspace,
  workspaceName,
  hasOwnDm = true,
}: {
  channels: Channel[];
  canWriteWorkspace: boolean;
  workspaceName: string;
  /** Without a DM of their own, a Just you fact is recalled nowhere: the form says so before it is kept. */
  hasOwnDm?: boolean;
}) {
  const { actions, workspace, agent, agentName } = useMemory();
  const [text, setText] = useState("");
  const [scope, setScope] = useState<Audience>("person");
  const [channelId, setChannelId] = useState(channels[0]?.id ?? "");
  const [until, setUntil] = useState("");
  // The text the server warned about: the warning (and its "Keep it anyway") holds for that text only.
  const [warnedText, setWarnedText] = useState<string | null>(null);
  const [state, submit, pending] = useActionState<FactActionState, FormData>(
    async (_previous, formData) => {
      const result = await actions.addFact(formData);
      if (result.status === "success") {
        setText("");
        setUntil("");
        // To the new fact's card once the refreshed list shows it; the message says it if this view hides it.
        const factId = result.factId;
        if (factId) focusSoon(() => factElement(factId));
      }
      setWarnedText(result.status === "warning" ? String(formData.get("text") ?? "") : null);
      return result;
    },
    { status: "idle" },
  );
  const pickerId = useId();
  const warningId = useId();
  const warning = state.status === "warning" && warnedText === text ? state.message : null;
  const audience = audienceLabel(scope, channels.find((c) => c.id === channelId), workspaceName);
  const reachesNoPlace = scope === "person" && !hasOwnDm;

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    // Not <form action>: React resets such a form after every submission, which put the
    // radios back on "Just me" and the channel on the first one while the page still
    // showed the old choice. Every field here is controlled and stays as the person left it.
    event.preventDefault();
    // With its submitter, so "Keep it anyway" sends its confirm=true.
    const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => submit(data));
  }

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-4" aria-labelledby="add-fact-heading">
      <h2 id="add-fact-heading" className="text-lg font-semibold">
        Remember a fact
      </h2>
      <input type="hidden" name="workspace" value={workspace} />
      <input type="hidden" name="agent" value={agent} />
      <FactTextArea label="Fact" name="text" value={text} onChange={setText} describedBy={warningId} />
      <InstructionWarning
        id={warningId}
        message={warning}
        keep={{ type: "submit", name: "confirm", value: "true", disabled: pending || !audience }}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">Who it is for</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
          <ScopeOption value="person" label={scopeName("person", workspaceName)} checked={scope === "person"} onSelect={setScope} />
          {canWriteWorkspace ? (
            <ScopeOption value="workspace" label={scopeName("workspace", workspaceName)} checked={scope === "workspace"} onSelect={setScope} />
          ) : null}
          {channels.length ? (
            <ScopeOption value="channel" label={scopeName("channel", workspaceName)} checked={scope === "channel"} onSelect={setScope} />
          ) : null}
        </div>
      </fieldset>
      {reachesNoPlace ? (
        <p data-reaches-no-place className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">
          {agentName} will not recall this anywhere until you have a DM with {agentName}: Just you facts are recalled only
          there. Ask an owner to start one, or keep it for a channel.
        </p>
      ) : null}
      {scope === "channel" ? (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={pickerId} className="text-sm font-medium text-slate-800">
            Channel
          </label>
          <select
            id={pickerId}
            name="channel"
            className="min-h-10 rounded-md border border-slate-300 bg-white px-3 text-sm"
            value={channelId}
            onChange={(event) => setChannelId(event.target.value)}
          >
            {channels.map((channel) => (
              <option key={channel.id} value={channel.id}>
                {channel.label}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <UntilField name="valid_until" value={until} onChange={setUntil} />
      <p className="text-xs text-slate-500">
        Facts you add are pinned, so {agentName} recalls them before its own notes.
      </p>
      {state.status === "success" ? (
        <p role="status" className="text-sm text-green-800">
          {state.message}
        </p>
      ) : state.status !== "idle" && state.status !== "warning" ? (
        <p role="alert" aria-label="Add fact problem" className="text-sm text-red-700">
          {state.message}
        </p>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="submit"
          disabled={pending || !text.trim() || !audience}
          aria-describedby={!text.trim() ? "add-fact-blank" : undefined}
        >
          {pending ? "Remembering…" : audience ? `Remember for ${audience}` : "Choose a channel"}
        </Button>
        {/* Why the button is off, in words, rather than a disabled button alone. */}
        {!text.trim() ? (
          <p id="add-fact-blank" className="text-sm text-slate-600">
            Write the fact first: there is nothing to remember yet.
          </p>
        ) : null}
      </div>
    </form>
  );
}

function ScopeOption({
  value,
  label,
  checked,
  onSelect,
}: {
  value: Audience;
  label: string;
  checked: boolean;
  onSelect: (value: Audience) => void;
}) {
  return (
    <label className="inline-flex min-h-8 items-center gap-2">
      <input type="radio" name="scope" value={value} checked={checked} onChange={() => onSelect(value)} />
      {label}
    </label>
  );
}
