"use client";

import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { AdminState } from "@/lib/actions/admin-states";
import { FormProblem } from "./form-problem";
import { useAdminAction } from "./use-admin-action";

/** Start a workspace: the person becomes its first owner and lands on its settings. */
export function StartWorkspaceForm({ action }: { action: (data: FormData) => Promise<AdminState> }) {
  const [state, submit, pending] = useAdminAction(action);
  return (
    <form action={submit} className="flex flex-col gap-3" aria-labelledby="start-workspace-heading">
      <h2 id="start-workspace-heading" className="text-lg font-semibold">
        Start a workspace
      </h2>
      <p className="text-sm text-slate-600">For a team of your own. You will be its owner.</p>
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Workspace name" id="workspace-name" name="name" required maxLength={80} autoComplete="organization" />
        <Button type="submit" disabled={pending}>
          {pending ? "Starting…" : "Start workspace"}
        </Button>
      </div>
      <FormProblem state={state} label="Start workspace problem" />
    </form>
  );
}
