"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { AdminState } from "@/lib/actions/admin-states";
import { useRef } from "react";
import { submitWith } from "@/components/you/submit-with";
import { problemFor, useFocusRefusedField } from "./field-problem";
import { FormProblem } from "./form-problem";
import { useAdminAction } from "./use-admin-action";

export function CreateAgentForm({ workspace, action }: { workspace: string; action: (data: FormData) => Promise<AdminState> }) {
  const [state, submit, pending] = useAdminAction(action);
  const form = useRef<HTMLFormElement>(null);
  useFocusRefusedField(state, form);
  return (
    // onSubmit, not action: React's reset after an action emptied both fields when the handle was refused.
    <form ref={form} onSubmit={submitWith(submit)} className="flex flex-col gap-4" aria-labelledby="create-agent-heading">
      <h2 id="create-agent-heading" className="text-lg font-semibold">
        Create an agent
      </h2>
      <input type="hidden" name="workspace" value={workspace} />
      <Field label="Handle" id="agent-handle" name="handle" required maxLength={33} autoComplete="off" placeholder="scout" error={problemFor(state, "handle")} />
      <Field label="Name" id="agent-name" name="name" required maxLength={80} autoComplete="off" placeholder="Scout" error={problemFor(state, "name")} />
      <p className="text-xs text-slate-500">
        The handle is how people mention it (@scout): lower-case, unique in this workspace, and it can&apos;t change.
      </p>
      <FormProblem state={state} label="Create agent problem" fields={["handle", "name"]} />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create agent"}
        </Button>
      </div>
    </form>
  );
}
