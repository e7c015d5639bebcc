import type { Metadata } from "next";
import { getDb } from "@/db";
import { CreateWebhookForm, WebhookList } from "@/components/settings/webhooks";
import { requireOwner } from "@/lib/auth/session";
import { requestTime } from "@/lib/ids";
import { listDeliveries, listEndpoints } from "@/lib/webhooks/endpoints";
import { createWebhookAction, deleteWebhookAction, sendTestWebhookAction, setWebhookEnabledAction } from "./actions";

export const metadata: Metadata = { title: "Webhooks" };

/** Owners' webhook endpoints and their delivery logs (the layout and this page both require an owner). */
export default async function WebhooksPage({ params }: { params: Promise<{ workspace: string }> }) {
  const { workspace } = await params;
  const owner = await requireOwner(workspace);
  const db = getDb();
  const endpoints = await listEndpoints(db, owner.workspace.id);
  const views = await Promise.all(
    endpoints.map(async (endpoint) => ({ ...endpoint, deliveries: await listDeliveries(db, owner.workspace.id, endpoint.id, 20) })),
  );
  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <section aria-labelledby="webhooks-heading" className="flex min-w-0 flex-col gap-3 lg:col-span-2">
        <div>
          <h2 id="webhooks-heading" className="text-lg font-semibold">
            Webhooks ({endpoints.length})
          </h2>
          <p className="text-sm text-slate-600">
            Mnemo tells other systems when a fact changes, signed the Standard Webhooks way. Workspace facts are sent with
            their text; channel and person facts only with their ids and scope, as owners can&apos;t read them here either.
          </p>
        </div>
        <WebhookList
          workspace={owner.workspace.id}
          endpoints={views}
          now={requestTime()}
          actions={{ setEnabled: setWebhookEnabledAction, remove: deleteWebhookAction, test: sendTestWebhookAction }}
        />
      </section>
      <aside className="min-w-0">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <CreateWebhookForm workspace={owner.workspace.id} action={createWebhookAction} />
        </div>
      </aside>
    </div>
  );
}
