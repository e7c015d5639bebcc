"use client";

import { startTransition, useRef, useState } from "react";
import { submitWith } from "@/components/you/submit-with";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { RelativeTime } from "@/components/ui/relative-time";
import type { AdminState, NewKeyState } from "@/lib/actions/admin-states";
import { problemFor, useFocusRefusedField } from "./field-problem";
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
  expiresAt: string | null;
};

const DAY_MS = 86_400_000;
/** A live key that expires within this many days carries a reminder in the list. */
export const EXPIRY_REMINDER_DAYS = 7;

/**
 * Create a named key, with an optional expiry day; the key itself is shown once,
 * here — and no longer once that key is revoked (`keys` is the list the page shows).
 */
export function CreateKeyForm({
  workspace,
  agentId,
  keys,
  now,
  action,
}: {
  workspace: string;
  agentId: string;
  keys: KeyView[];
  now: number;
  action: (data: FormData) => Promise<NewKeyState>;
}) {
  const [state, submit, pending] = useAdminAction(action);
  const form = useRef<HTMLFormElement>(null);
  useFocusRefusedField(state, form);
  const tomorrow = new Date(now + DAY_MS).toISOString().slice(0, 10);
  const created = state.status === "key_created" ? state : null;
  const revoked = created ? keys.some((key) => key.id === created.keyId && key.revokedAt) : false;
  return (
    <div className="flex flex-col gap-3">
      {/* onSubmit, not action: React's reset after an action would empty the name a refusal is about. */}
      <form ref={form} onSubmit={submitWith(submit)} className="flex flex-wrap items-start gap-2" aria-label="Create a key">
        <input type="hidden" name="workspace" value={workspace} />
        <input type="hidden" name="agentId" value={agentId} />
        <Field
          label="Key name"
          id="key-name"
          name="name"
          required
          maxLength={80}
          autoComplete="off"
          placeholder="Production bot"
          error={problemFor(state, "name")}
        />
        <Field
          label="Expires on (optional)"
          id="key-expires"
          name="expiresOn"
          type="date"
          min={tomorrow}
          note="Stops working at the start of that day (UTC). Blank: never."
          error={problemFor(state, "expiresOn")}
        />
        <div className="pt-7">
          <Button type="submit" disabled={pending}>
            {pending ? "Creating…" : "Create key"}
          </Button>
        </div>
      </form>
      <FormProblem state={state} label="Create key problem" fields={["name", "expiresOn"]} />
      {created && !revoked ? <SecretReveal label="New key" value={created.key} warning={created.message} /> : null}
    </div>
  );
}

/** "Expires in 3 days", "Expires tomorrow", "Expired": for the list, from the expiry and the request time. */
function expiryWords(expiresAt: string, now: number): { text: string; soon: boolean; expired: boolean } {
  const left = Date.parse(expiresAt) - now;
  if (left <= 0) return { text: `Expired on ${expiresAt.slice(0, 10)}`, soon: false, expired: true };
  const days = Math.ceil(left / DAY_MS);
  const when = days <= 1 ? "within a day" : `in ${days} days`;
  return { text: `${expiresAt.slice(0, 10)} (UTC), ${when}`, soon: days <= EXPIRY_REMINDER_DAYS, expired: false };
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
  const expiry = agentKey.expiresAt ? expiryWords(agentKey.expiresAt, now) : null;

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
        ) : expiry?.expired ? (
          <span className="text-xs font-medium uppercase tracking-wide text-red-700">Expired</span>
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
        <dt className="text-slate-500">Expires</dt>
        <dd>{expiry ? expiry.text : "Never"}</dd>
        {agentKey.revokedAt ? (
          <>
            <dt className="text-slate-500">Revoked</dt>
            <dd>
              <RelativeTime iso={agentKey.revokedAt} now={now} />
            </dd>
          </>
        ) : null}
      </dl>
      {expiry?.soon && !agentKey.revokedAt ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          This key stops working {expiry.text.split(", ")[1]}. Create a new key now and move whatever uses this one to it.
        </p>
      ) : null}
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
