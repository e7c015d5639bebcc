"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import type { AdminState } from "@/lib/actions/admin-states";
import { submitWith } from "@/components/you/submit-with";
import { problemFor, useFocusRefusedField } from "./field-problem";
import { FormProblem } from "./form-problem";
import { KIND_LABELS } from "./kinds";
import { useAdminAction } from "./use-admin-action";

export function CreateChannelForm({ workspace, action }: { workspace: string; action: (data: FormData) => Promise<AdminState> }) {
  const form = useRef<HTMLFormElement>(null);
  const created = useRef("");
  // Focus goes to the new channel's card, where its people are added next.
  const [state, submit, pending] = useAdminAction(
    async (data: FormData) => {
      // As the server will name it (lib/validation/admin.ts): lower-case, without a leading #.
      created.current = String(data.get("name") ?? "").trim().toLowerCase().replace(/^#/, "");
      return action(data);
    },
    () => document.querySelector<HTMLElement>(`[data-channel-title="${CSS.escape(created.current)}"]`),
  );
  useEffect(() => {
    if (state.status === "success") form.current?.reset();
  }, [state]);
  useFocusRefusedField(state, form);
  return (
    <form ref={form} onSubmit={submitWith(submit)} className="flex flex-col gap-4" aria-labelledby="create-channel-heading">
      <h2 id="create-channel-heading" className="text-lg font-semibold">
        Create a channel
      </h2>
      <input type="hidden" name="workspace" value={workspace} />
      <Field label="Channel name" id="channel-name" name="name" required maxLength={81} autoComplete="off" placeholder="design-reviews" error={problemFor(state, "name")} />
      <Select label="Kind" id="channel-kind" name="kind" defaultValue="private">
        {Object.entries(KIND_LABELS).map(([kind, label]) => (
          <option key={kind} value={kind}>
            {label}
          </option>
        ))}
      </Select>
      <p className="text-xs text-slate-500">
        Public: every member reads it. Private: only its people. Direct message: the agent and the people in it; with
        one person, it is where their own facts are recalled.
      </p>
      <FormProblem state={state} label="Create channel problem" fields={["name"]} />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create channel"}
        </Button>
      </div>
    </form>
  );
}
