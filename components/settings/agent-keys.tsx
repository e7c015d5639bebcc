"use client";

import { startTransition, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { RelativeTime } from "@/components/ui/relative-time";
import type { AdminState, NewKeyState } from "@/lib/actions/admin-states";
import { FormProblem } from "./form-problem";
import { SecretReveal } from "./secret-reveal";
import { useAdminAction } from "./use-admin-action";

export type KeyView = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** Create a named key; the key itself is shown once, here, and never again. */
export function CreateKeyForm({
  workspace,
  agentId,
  action,
}: {
  workspace: string;
  agentId: string;
  action: (data: FormData) => Promise<NewKeyState>;
}) {
  const [state, submit, pending] = useAdminAction(action);
  return (
    <div className="flex flex-col gap-3">
      <form action={submit} className="flex flex-wrap items-end gap-2" aria-label="Create a key">
        <input type="hidden" name="workspace" value={workspace} />
        <input type="hidden" name="agentId" value={agentId} />
        <Field label="Key name" id="key-name" name="name" required maxLength={80} autoComplete="off" placeholder="Production bot" />
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create key"}
        </Button>
      </form>
      <FormProblem state={state} label="Create key problem" />
      {state.status === "key_created" ? <SecretReveal label="New key" value={state.key} warning={state.message} /> : null}
    </div>
  );
}

/** The agent's keys, newest first: name, prefix, created, last used, and Revoke while live. */
export function KeyList({
  workspace,
  keys,
  now,
  revoke,
}: {
  workspace: string;
  keys: KeyView[];
  now: number;
  revoke: (data: FormData) => Promise<AdminState>;
}) {
  if (!keys.length) return <p className="text-sm text-slate-600">No keys yet: the agent can&apos;t call the API.</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label="Keys">
      {keys.map((key) => (
        <KeyRow key={key.id} workspace={workspace} agentKey={key} now={now} revoke={revoke} />
      ))}
    </ul>
  );
}

function KeyRow({
  workspace,
  agentKey,
  now,
  revoke,
}: {
  workspace: string;
  agentKey: KeyView;
  now: number;
  revoke: (data: FormData) => Promise<AdminState>;
}) {
  const row = useRef<HTMLLIElement>(null);
  // After Revoke, focus is on the key's row, which now says Revoked.
  const [state, submit, pending] = useAdminAction(revoke, () => row.current);
  const [confirming, setConfirming] = useState(false);

  function confirm() {
    setConfirming(false);
    const data = new FormData();
    data.set("workspace", workspace);
    data.set("keyId", agentKey.id);
    startTransition(() => submit(data));
  }

  return (
    <li ref={row} tabIndex={-1} aria-label={agentKey.name} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-medium">{agentKey.name}</p>
        {agentKey.revokedAt ? (
          <span className="text-xs font-medium uppercase tracking-wide text-red-700">Revoked</span>
        ) : (
          <span className="text-xs font-medium uppercase tracking-wide text-green-800">Active</span>
        )}
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-700">
        <dt className="text-slate-500">Starts with</dt>
        <dd>
          <code className="font-mono">{agentKey.prefix}…</code>
        </dd>
        <dt className="text-slate-500">Created</dt>
        <dd>
          <RelativeTime iso={agentKey.createdAt} now={now} />
        </dd>
        <dt className="text-slate-500">Last used</dt>
        <dd>{agentKey.lastUsedAt ? <RelativeTime iso={agentKey.lastUsedAt} now={now} /> : "Never"}</dd>
        {agentKey.revokedAt ? (
          <>
            <dt className="text-slate-500">Revoked</dt>
            <dd>
              <RelativeTime iso={agentKey.revokedAt} now={now} />
            </dd>
          </>
        ) : null}
      </dl>
      <FormProblem state={state} label="Revoke problem" />
      {agentKey.revokedAt ? null : (
        <div>
          <Button type="button" variant="secondary" disabled={pending} onClick={() => setConfirming(true)}>
            Revoke
          </Button>
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Revoke “${agentKey.name}”?`}
        confirmLabel="Revoke key"
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      >
        <p>Every call with this key is refused from now on. This can&apos;t be undone; you can create a new key.</p>
      </ConfirmDialog>
    </li>
  );
}
