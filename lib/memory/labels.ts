/**
 * The labels a fact carries, written by Mnemo and never taken from a caller, so
 * that they tell the truth: the scope label names the channel or the person a
 * fact belongs to, the source label who said it where.
 */
import type { ChannelKind, Scope } from "./rules";

/** "#support" for a channel, "a direct message" for a DM. */
export function placeName(channel: { name: string; kind: ChannelKind }): string {
  return channel.kind === "dm" ? "a direct message" : `#${channel.name}`;
}

/** What a fact's scope label says: nothing for the workspace, the channel or the person by name. */
export function scopeLabelFor(
  scope: Scope,
  channel: { name: string },
  personName: string | null,
): string | null {
  if (scope === "workspace") return null;
  if (scope === "channel") return `#${channel.name}`;
  return personName;
}

/** "@ana in #support", "@ana in a direct message", "a session in #ops". */
export function sourceLabelFor(
  sourceKind: "message" | "session",
  askerHandle: string | null,
  channel: { name: string; kind: ChannelKind },
): string {
  const who = sourceKind === "session" ? "a session" : askerHandle ? `@${askerHandle}` : "a message";
  return `${who} in ${placeName(channel)}`;
}
