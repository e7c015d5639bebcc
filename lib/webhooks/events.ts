/**
 * The events a webhook endpoint may ask for, with the words Settings shows. The
 * names are what drizzle/0017's triggers write into each payload's `type`.
 */
export const WEBHOOK_EVENTS = [
  "fact.remembered",
  "fact.corrected",
  "fact.pinned",
  "fact.unpinned",
  "fact.forgotten",
  "fact.restored",
  "fact.purged",
  "fact.proposed",
  "fact.approved",
  "fact.declined",
  "fact.replaced",
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const EVENT_WORDS: Record<WebhookEvent, string> = {
  "fact.remembered": "Remembered",
  "fact.corrected": "Corrected",
  "fact.pinned": "Pinned",
  "fact.unpinned": "Unpinned",
  "fact.forgotten": "Forgotten",
  "fact.restored": "Restored",
  "fact.purged": "Forgotten permanently (purged)",
  "fact.proposed": "Proposed (waiting for a decision)",
  "fact.approved": "Proposal approved",
  "fact.declined": "Proposal declined",
  "fact.replaced": "Replaced",
};

export function isWebhookEvent(name: string): name is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(name);
}

/** How endpoints store their events: space-separated with a space at each end, so a trigger matches `% name %`. */
export function eventsColumn(events: readonly WebhookEvent[]): string {
  return ` ${[...new Set(events)].join(" ")} `;
}

export function eventsOf(column: string): WebhookEvent[] {
  return column.split(" ").filter(isWebhookEvent);
}
