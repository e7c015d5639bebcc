/**
 * The shapes the Webhooks settings page's actions accept. Each event is its own
 * checkbox field (a form's repeated name would keep only the last value).
 */
import { z } from "zod";
import { WEBHOOK_EVENTS, type WebhookEvent } from "@/lib/webhooks/events";
import { workspaceTarget } from "./admin";

const id = z.string().trim().min(1).max(200);

const eventFields = Object.fromEntries(WEBHOOK_EVENTS.map((event) => [event, z.literal("on").optional()])) as Record<
  WebhookEvent,
  z.ZodOptional<z.ZodLiteral<"on">>
>;

export const createWebhookInput = workspaceTarget.extend({
  url: z
    .string({ error: "Write the endpoint's URL." })
    .trim()
    .min(1, "Write the endpoint's URL.")
    .max(2000, "The URL is too long (at most 2,000 characters)."),
  ...eventFields,
});

/** The events ticked in a parsed createWebhookInput. */
export function chosenEvents(input: Partial<Record<WebhookEvent, "on" | undefined>>): WebhookEvent[] {
  return WEBHOOK_EVENTS.filter((event) => input[event] === "on");
}

export const webhookTarget = workspaceTarget.extend({ endpointId: id });

export const setWebhookEnabledInput = webhookTarget.extend({
  enabled: z.enum(["true", "false"], { error: "Choose on or off." }).transform((value) => value === "true"),
});
