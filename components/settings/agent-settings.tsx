"use client";

import { startTransition, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import type { AdminState } from "@/lib/actions/admin-states";
import { FormProblem } from "./form-problem";
import { useAdminAction } from "./use-admin-action";

type Action = (data: FormData) => Promise<AdminState>;
type Agent = { id: string; handle: string; name: string; facts: number };

const factCount = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "fact" : "facts"}`;

/** Rename an agent. */
export function RenameAgentForm({ workspace, agent, action }: { workspace: string; agent: Agent; action: Action }) {
  const [state, submit, pending] = useAdminAction(action);
  return (
    <form action={submit} className="flex flex-col gap-3" aria-labelledby="rename-agent-heading">
      <h2 id="rename-agent-heading" className="text-lg font-semibold">
        Name
      </h2>
      <input type="hidden" name="workspace" value={workspace} />
      <input type="hidden" name="agentId" value={agent.id} />
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Display name" id="agent-display-name" name="name" defaultValue={agent.name} required maxLength={80} />
        <Button type="submit" variant="secondary" disabled={pending}>
          Rename
        </Button>
      </div>
      <FormProblem state={state} label="Rename problem" />
    </form>
  );
}

/** Delete an agent, after a confirmation that names how many facts go with it. */
export function DeleteAgent({ workspace, agent, action }: { workspace: string; agent: Agent; action: Action }) {
  const [state, submit, pending] = useAdminAction(action);
  const [confirming, setConfirming] = useState(false);

  function confirm() {
    setConfirming(false);
    const data = new FormData();
    data.set("workspace", workspace);
    data.set("agentId", agent.id);
    data.set("expectedFacts", String(agent.facts));
    startTransition(() => submit(data));
  }

  return (
    <div className="flex flex-col gap-3">
      <h2 className="text-lg font-semibold text-red-800">Delete {agent.name}</h2>
      <p className="text-sm text-slate-700">
        Deleting @{agent.handle} deletes its {factCount(agent.facts)}, their history and its keys, for everyone. It
        can&apos;t be undone.
      </p>
      <FormProblem state={state} label="Delete agent problem" />
      <div>
        <Button type="button" variant="danger" disabled={pending} onClick={() => setConfirming(true)}>
          Delete agent
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Delete ${agent.name} and ${factCount(agent.facts)}?`}
        confirmLabel={`Delete ${agent.name}`}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      >
        <p>
          {agent.name} keeps {factCount(agent.facts)} (including recently forgotten ones). They, their history and every
          key of @{agent.handle} will be deleted, and agents using those keys will be refused.
        </p>
      </ConfirmDialog>
    </div>
  );
}
