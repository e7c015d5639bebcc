"use client";

/**
 * Whether an agent's workspace and channel facts wait for a person (proposals) or
 * are kept at once. The radios are controlled, so a refused Save leaves the
 * person's choice on screen to try again, and an error sits on its own group.
 */
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { WritePoliciesState } from "@/lib/actions/admin-states";
import { scopeName } from "@/lib/memory/labels";
import { FormProblem } from "./form-problem";
import { useAdminAction } from "./use-admin-action";

type Policy = "wait" | "keep";
type PolicyField = "workspaceFacts" | "channelFacts";
type Policies = Record<PolicyField, Policy>;

// Each group's legend names its scope by the one name the Memory page uses (labels.ts scopeName).
const GROUPS: { field: PolicyField; scope: "workspace" | "channel"; choices: { value: Policy; label: string; note: string }[] }[] = [
  {
    field: "workspaceFacts",
    scope: "workspace",
    choices: [
      { value: "wait", label: "Wait for an owner", note: "An owner approves each one before any conversation recalls it." },
      { value: "keep", label: "Keep at once", note: "Recalled everywhere in the workspace as soon as the agent writes it." },
    ],
  },
  {
    field: "channelFacts",
    scope: "channel",
    choices: [
      { value: "keep", label: "Keep at once", note: "Recalled in its channel as soon as the agent writes it." },
      {
        value: "wait",
        label: "Wait for someone in the channel",
        note: "Someone who reads the channel approves each one first.",
      },
    ],
  },
];

export function WritePoliciesForm({
  workspace,
  workspaceName,
  agent,
  policies,
  action,
}: {
  workspace: string;
  workspaceName: string;
  agent: { id: string; name: string };
  policies: Policies;
  action: (data: FormData) => Promise<WritePoliciesState>;
}) {
  const [state, submit, pending] = useAdminAction(action);
  const [chosen, setChosen] = useState<Policies>(policies);
  const formRef = useRef<HTMLFormElement>(null);
  const headingId = useId();
  const fieldError = state.status === "invalid_data" && "field" in state ? state : null;

  // A refused group gets the focus, so the error read with it is the first thing heard.
  useEffect(() => {
    if (!fieldError) return;
    formRef.current?.querySelector<HTMLInputElement>(`input[name="${fieldError.field}"]:checked`)?.focus();
  }, [fieldError]);

  return (
    <form ref={formRef} action={submit} className="flex flex-col gap-4" aria-labelledby={headingId}>
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-lg font-semibold">
          What waits for a person
        </h2>
        <p className="text-sm text-slate-600">
          A fact that waits is a proposal: {agent.name} never recalls it until someone who may decide approves it on
          the Memory page. Text that reads like an instruction to the agent always waits, whatever you choose here.
        </p>
      </div>
      <input type="hidden" name="workspace" value={workspace} />
      <input type="hidden" name="agentId" value={agent.id} />
      {GROUPS.map((group) => {
        const error = fieldError?.field === group.field ? fieldError.message : null;
        const errorId = `${headingId}-${group.field}-error`;
        return (
          <fieldset
            key={group.field}
            className="flex flex-col gap-2"
            aria-describedby={error ? errorId : undefined}
            aria-invalid={error ? true : undefined}
          >
            <legend className="mb-1 text-sm font-medium text-slate-800">Facts for {scopeName(group.scope, workspaceName)} from this agent</legend>
            {group.choices.map((choice) => {
              const id = `${headingId}-${group.field}-${choice.value}`;
              return (
                <div key={choice.value} className="flex items-start gap-2">
                  <input
                    type="radio"
                    id={id}
                    name={group.field}
                    value={choice.value}
                    checked={chosen[group.field] === choice.value}
                    onChange={() => setChosen((all) => ({ ...all, [group.field]: choice.value }))}
                    aria-describedby={`${id}-note`}
                    className="mt-1 size-4 accent-brand-600"
                  />
                  <div className="flex flex-col">
                    <label htmlFor={id} className="text-sm text-slate-900">
                      {choice.label}
                    </label>
                    <span id={`${id}-note`} className="text-xs text-slate-500">
                      {choice.note}
                    </span>
                  </div>
                </div>
              );
            })}
            {error ? (
              <p id={errorId} className="text-sm text-red-700">
                {error}
              </p>
            ) : null}
          </fieldset>
        );
      })}
      {fieldError ? null : <FormProblem state={state} label="Write policies problem" />}
      <div>
        <Button type="submit" variant="secondary" disabled={pending}>
          {pending ? "Saving…" : "Save"}
        </Button>
      </div>
    </form>
  );
}
