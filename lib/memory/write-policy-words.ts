/**
 * An agent's write policies in plain words, for the Memory page's sentence about
 * what waits and for the Inbox's "why it waits". One place, so the settings page,
 * the Memory page and the Inbox say the same thing.
 */
import type { WritePolicies } from "./rules";

/** The Memory page's sentence: which of the agent's facts wait, and for whom. */
export function waitingInWords(agentName: string, policies: WritePolicies): string {
  const workspace = policies.workspaceFacts === "wait";
  const channel = policies.channelFacts === "wait";
  if (workspace && channel) {
    return `Workspace facts from ${agentName} wait for an owner's approval, and channel facts for approval by someone in the channel.`;
  }
  if (workspace) return `Workspace facts from ${agentName} wait for an owner's approval.`;
  if (channel) return `Channel facts from ${agentName} wait for approval by someone in the channel.`;
  return `${agentName} keeps its facts at once; only those that read like instructions wait for a person's approval.`;
}

/** Why a proposal waits when the agent's setting made it wait (not its text). */
export function settingWaitInWords(agentName: string, scope: string): string {
  if (scope === "workspace") return `Waits because workspace facts from ${agentName} wait for an owner.`;
  if (scope === "channel") return `Waits because channel facts from ${agentName} wait for someone in the channel.`;
  return `Waits for your approval.`;
}
