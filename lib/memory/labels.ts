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

/**
 * The one name of each scope, on every surface (groups, filters, Add's choices,
 * the header, Inbox, "Your data"): "Everyone in Acme", "Channels", "Just you".
 * A second name for the same scope is what issue #17 found confusing; the
 * vocabulary e2e test fails on any other.
 */
export function scopeName(scope: Scope, workspaceName: string): string {
  if (scope === "workspace") return `Everyone in ${workspaceName}`;
  if (scope === "channel") return "Channels";
  return "Just you";
}

/**
 * A channel as people know it: "#support", "Your DM" (the viewer's own, where
 * their Just you facts are recalled), "DM with Max Mills and Ana Alves" — never
 * a DM's internal name such as "#dm-ana".
 */
export function channelLabel(kind: ChannelKind, name: string, isOwnDm: boolean, others: string[]): string {
  if (kind !== "dm") return `#${name}`;
  if (isOwnDm) return "Your DM";
  return others.length ? `DM with ${joinNames(others)}` : "A DM";
}

export function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
