"use server";

/**
 * The Webhooks page's server actions: owners only (ownerAction), every statement
 * scoped to the workspace. A new endpoint's signing secret is answered once.
 */
import type { AdminState, NewWebhookState } from "@/lib/actions/admin-states";
import { NOTHING_HERE, ownerAction } from "@/lib/actions/owner-action";
import { chosenEvents, createWebhookInput, setWebhookEnabledInput, webhookTarget } from "@/lib/validation/webhooks";
import { createEndpoint, deleteEndpoint, MAX_ENDPOINTS, queueTestEvent, setEndpointEnabled } from "@/lib/webhooks/endpoints";
import { nudgeWebhookSender } from "@/lib/webhooks/sender";

export const createWebhookAction = ownerAction(createWebhookInput, async (ctx, input): Promise<NewWebhookState> => {
  const result = await createEndpoint(ctx.db, ctx.owner, ctx.workspace.id, { url: input.url, events: chosenEvents(input) });
  switch (result.status) {
    case "no_events":
      return { status: "invalid_data", message: "Choose at least one event to send." };
    case "invalid_url":
      return { status: "invalid_data", message: result.reason };
    case "too_many":
      return { status: "failed", message: `A workspace has at most ${MAX_ENDPOINTS} endpoints. Delete one first.` };
    case "created":
      ctx.refresh();
      return {
        status: "webhook_created",
        message: "Copy the signing secret now: it won't be shown again. Your receiver checks each delivery's signature with it.",
        secret: result.secret,
      };
  }
});

export const setWebhookEnabledAction = ownerAction(setWebhookEnabledInput, async (ctx, input): Promise<AdminState> => {
  const result = await setEndpointEnabled(ctx.db, ctx.owner, ctx.workspace.id, input.endpointId, input.enabled);
  if (result.status === "not_found") return { status: "failed", message: NOTHING_HERE };
  ctx.refresh();
  if (input.enabled) nudgeWebhookSender();
  return { status: "success", message: input.enabled ? `Sending to ${result.host} again.` : `Stopped sending to ${result.host}.` };
});

export const deleteWebhookAction = ownerAction(webhookTarget, async (ctx, input): Promise<AdminState> => {
  const result = await deleteEndpoint(ctx.db, ctx.owner, ctx.workspace.id, input.endpointId);
  if (result.status === "not_found") return { status: "failed", message: NOTHING_HERE };
  ctx.refresh();
  return { status: "success", message: `Deleted the endpoint ${result.host} and its delivery log.` };
});

export const sendTestWebhookAction = ownerAction(webhookTarget, async (ctx, input): Promise<AdminState> => {
  const result = await queueTestEvent(ctx.db, ctx.workspace.id, input.endpointId);
  if (result.status === "not_found") return { status: "failed", message: NOTHING_HERE };
  nudgeWebhookSender();
  ctx.refresh();
  return { status: "success", message: "A test event is on its way. Its delivery shows in the log below." };
});
