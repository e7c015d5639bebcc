"use client";

/**
 * The Webhooks settings: add an endpoint (its signing secret shown once), and for
 * each endpoint its state, Send a test event, turn off or on, delete, and its
 * delivery log. Everything here comes from the owner's own page render.
 */
import { startTransition, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { RelativeTime } from "@/components/ui/relative-time";
import type { AdminState, NewWebhookState } from "@/lib/actions/admin-states";
import { EVENT_WORDS, WEBHOOK_EVENTS, type WebhookEvent } from "@/lib/webhooks/events";
import { FormProblem } from "./form-problem";
import { SecretReveal } from "./secret-reveal";
import { useAdminAction } from "./use-admin-action";

export type WebhookView = {
  id: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  disabledReason: string | null;
  pending: number;
  createdAt: string;
  deliveries: {
    id: number;
    event: string;
    status: "pending" | "delivered" | "failed";
    attempts: number;
    lastCode: number | null;
    lastError: string | null;
    lastAttemptAt: string | null;
    createdAt: string;
  }[];
};

type Action<S = AdminState> = (data: FormData) => Promise<S>;

export function CreateWebhookForm({ workspace, action }: { workspace: string; action: Action<NewWebhookState> }) {
  const [state, submit, pending] = useAdminAction(action);
  return (
    <div className="flex flex-col gap-3">
      <form action={submit} className="flex flex-col gap-3" aria-label="Add an endpoint">
        <input type="hidden" name="workspace" value={workspace} />
        <Field
          label="Endpoint URL"
          id="webhook-url"
          name="url"
          type="url"
          required
          maxLength={2000}
          autoComplete="off"
          placeholder="https://example.com/hooks/mnemo"
          note="https:// is best. Private and local addresses are refused."
        />
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1 text-sm font-medium text-slate-800">Events to send</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" name={event} defaultChecked className="size-4" />
              {EVENT_WORDS[event]} <code className="font-mono text-xs text-slate-500">{event}</code>
            </label>
          ))}
        </fieldset>
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? "Adding…" : "Add endpoint"}
          </Button>
        </div>
      </form>
      <FormProblem state={state} label="Add endpoint problem" />
      {state.status === "webhook_created" ? <SecretReveal label="Signing secret" value={state.secret} warning={state.message} /> : null}
    </div>
  );
}

const STATUS_WORDS = { pending: "Waiting", delivered: "Delivered", failed: "Gave up" } as const;

export function WebhookList({
  workspace,
  endpoints,
  now,
  actions,
}: {
  workspace: string;
  endpoints: WebhookView[];
  now: number;
  actions: { setEnabled: Action; remove: Action; test: Action };
}) {
  if (!endpoints.length) return <p className="text-sm text-slate-600">No endpoints yet: nothing is sent.</p>;
  return (
    <ul className="flex flex-col gap-4" aria-label="Endpoints">
      {endpoints.map((endpoint) => (
        <WebhookRow key={endpoint.id} workspace={workspace} endpoint={endpoint} now={now} actions={actions} />
      ))}
    </ul>
  );
}

function WebhookRow({
  workspace,
  endpoint,
  now,
  actions,
}: {
  workspace: string;
  endpoint: WebhookView;
  now: number;
  actions: { setEnabled: Action; remove: Action; test: Action };
}) {
  const [toggleState, toggle, toggling] = useAdminAction(actions.setEnabled);
  const [testState, test, testing] = useAdminAction(actions.test);
  const [removeState, remove, removing] = useAdminAction(actions.remove);
  const [confirming, setConfirming] = useState(false);
  const host = hostOf(endpoint.url);

  function confirmDelete() {
    setConfirming(false);
    const data = new FormData();
    data.set("workspace", workspace);
    data.set("endpointId", endpoint.id);
    startTransition(() => remove(data));
  }

  return (
    <li aria-label={host} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="min-w-0 break-all font-mono text-sm">{endpoint.url}</p>
        {endpoint.enabled ? (
          <span className="text-xs font-medium uppercase tracking-wide text-green-800">On</span>
        ) : (
          <span className="text-xs font-medium uppercase tracking-wide text-red-700">Off</span>
        )}
      </div>
      {endpoint.disabledReason ? (
        <p role="note" className="rounded-md bg-red-50 p-2 text-sm text-red-800">
          {endpoint.disabledReason}
        </p>
      ) : null}
      <p className="text-sm text-slate-600">
        Sends: {endpoint.events.map((event) => EVENT_WORDS[event]).join(", ")}.{" "}
        {endpoint.pending ? `${endpoint.pending} waiting to be sent.` : "Nothing waiting."}
      </p>
      <div className="flex flex-wrap gap-2">
        <form action={test}>
          <input type="hidden" name="workspace" value={workspace} />
          <input type="hidden" name="endpointId" value={endpoint.id} />
          <Button type="submit" variant="secondary" disabled={testing}>
            {testing ? "Sending…" : "Send a test event"}
          </Button>
        </form>
        <form action={toggle}>
          <input type="hidden" name="workspace" value={workspace} />
          <input type="hidden" name="endpointId" value={endpoint.id} />
          <input type="hidden" name="enabled" value={endpoint.enabled ? "false" : "true"} />
          <Button type="submit" variant="secondary" disabled={toggling}>
            {endpoint.enabled ? "Turn off" : "Turn on"}
          </Button>
        </form>
        <Button type="button" variant="secondary" disabled={removing} onClick={() => setConfirming(true)}>
          Delete
        </Button>
      </div>
      <FormProblem state={testState} label="Test event problem" />
      <FormProblem state={toggleState} label="Turn on or off problem" />
      <FormProblem state={removeState} label="Delete problem" />
      <DeliveryLog host={host} deliveries={endpoint.deliveries} now={now} />
      <ConfirmDialog
        open={confirming}
        title={`Delete the endpoint ${host}?`}
        confirmLabel="Delete endpoint"
        onConfirm={confirmDelete}
        onCancel={() => setConfirming(false)}
      >
        <p>Nothing more is sent to it, and its delivery log and waiting deliveries go too.</p>
      </ConfirmDialog>
    </li>
  );
}

function DeliveryLog({ host, deliveries, now }: { host: string; deliveries: WebhookView["deliveries"]; now: number }) {
  if (!deliveries.length) return <p className="text-sm text-slate-500">No deliveries yet.</p>;
  return (
    // Scrolls sideways on a phone, so it takes focus: arrow keys scroll it.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={`Delivery log of ${host}`}>
      <table className="w-full text-left text-sm" aria-label={`Deliveries to ${host}`}>
        <thead className="text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-3 font-medium">Event</th>
            <th scope="col" className="py-1 pr-3 font-medium">Status</th>
            <th scope="col" className="py-1 pr-3 font-medium">Last try</th>
            <th scope="col" className="py-1 pr-3 font-medium">Attempts</th>
            <th scope="col" className="py-1 font-medium">Response</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={delivery.id} className="border-t border-slate-100">
              <td className="py-1 pr-3 font-mono text-xs">{delivery.event}</td>
              <td className="py-1 pr-3">{STATUS_WORDS[delivery.status]}</td>
              <td className="py-1 pr-3">
                {delivery.lastAttemptAt ? <RelativeTime iso={delivery.lastAttemptAt} now={now} /> : "Not yet"}
              </td>
              <td className="py-1 pr-3">{delivery.attempts}</td>
              <td className="py-1">{delivery.lastCode ?? delivery.lastError ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
