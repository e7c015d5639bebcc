/**
 * For tests about something other than proposals: an agent whose workspace and
 * channel facts are kept at once, set as an owner would set it (setWritePolicies),
 * so a test's world says so in one line rather than with raw SQL.
 */
import type { Conn } from "@/db/client";
import { OPERATOR } from "@/lib/admin/audit";
import { setWritePolicies } from "@/lib/memory/proposals";

export async function keepAgentWrites(db: Conn, agentId = "scout", workspaceId = "acme"): Promise<void> {
  const { status } = await setWritePolicies(db, OPERATOR, workspaceId, agentId, { workspaceFacts: "keep", channelFacts: "keep" });
  if (status === "not_found" || status === "forbidden") throw new Error(`no agent ${agentId} in ${workspaceId} to set`);
}
