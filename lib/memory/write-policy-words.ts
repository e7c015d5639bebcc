/**
 * An agent's write policies in plain words, for the Memory page's sentence about
 * what waits and for the Inbox's "why it waits". One place, so the Memory page and
 * the Inbox say the same thing, with each scope's one name (labels.ts scopeName).
 */
import { scopeName } from "./labels";
import type { WritePolicies } from "./rules";

/** The Memory page's sentence: which of the agent's facts wait, and for whom. */
export function waitingInWords(agentName: string, workspaceName: string, policies: WritePolicies): string {
  const workspace = policies.workspaceFacts === "wait";
  const channel = policies.channelFacts === "wait";
  const everyone = scopeName("workspace", workspaceName);
  const channels = scopeName("channel", workspaceName);
  if (workspace && channel) {
    return `${agentName}'s facts for ${everyone} wait for an owner's approval; its facts for ${channels}, for approval by someone in the channel.`;
  }
  if (workspace) return `${agentName}'s facts for ${everyone} wait for an owner's approval.`;
  if (channel) return `${agentName}'s facts for ${channels} wait for approval by someone in the channel.`;
  return `${agentName} keeps its facts at once; only those that read like instructions wait for a person's approval.`;
}

/** Why a proposal waits when the agent's setting made it wait (not its text). */
export function settingWaitInWords(agentName: string, workspaceName: string, scope: string): string {
  if (scope === "workspace") return `Waits because ${agentName}'s facts for ${scopeName("workspace", workspaceName)} wait for an owner.`;
  if (scope === "channel") return `Waits because ${agentName}'s facts for ${scopeName("channel", workspaceName)} wait for someone in the channel.`;
  return `Waits for your approval.`;
}
