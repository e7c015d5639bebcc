"use server";

/**
 * One agent's settings: rename, delete, and its keys. Owners only (ownerAction);
 * every query names the workspace, so another workspace's agent or key is "not there".
 */
import type { AdminState, NewKeyState } from "@/lib/actions/admin-states";
import { NOTHING_HERE, ownerAction } from "@/lib/actions/owner-action";
import { createAgentKey, revokeAgentKey } from "@/lib/admin/agent-keys";
import { deleteAgent, renameAgent } from "@/lib/admin/agents";
import { createKeyInput, deleteAgentInput, renameAgentInput, revokeKeyInput } from "@/lib/validation/admin";

const facts = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "fact" : "facts"}`;

export const renameAgentAction = ownerAction(renameAgentInput, async (ctx, input): Promise<AdminState> => {
  const result = await renameAgent(ctx.db, ctx.owner, ctx.workspace.id, input.agentId, input.name);
  if (result.status === "not_found") return { status: "failed", message: NOTHING_HERE };
  if (result.status === "unchanged") return { status: "success", message: "Nothing changed." };
  ctx.refresh();
  return { status: "success", message: `Renamed to ${input.name}.` };
});

export const deleteAgentAction = ownerAction(deleteAgentInput, async (ctx, input): Promise<AdminState> => {
  const result = await deleteAgent(ctx.db, ctx.owner, ctx.workspace.id, input.agentId, input.expectedFacts);
  switch (result.status) {
    case "deleted":
      ctx.refresh();
      return {
        status: "success",
        message: `${result.name} and its ${facts(result.facts)} were deleted.`,
        href: `/w/${ctx.workspace.id}/settings/agents`,
      };
    case "changed":
      return {
        status: "failed",
        message: `It keeps ${facts(result.facts)} now, not ${facts(input.expectedFacts)}. Nothing was deleted; reload and confirm again.`,
      };
    case "not_found":
      return { status: "failed", message: NOTHING_HERE };
  }
});

export const createKeyAction = ownerAction(createKeyInput, async (ctx, input): Promise<NewKeyState> => {
  const created = await createAgentKey(ctx.db, ctx.owner, ctx.workspace.id, input.agentId, input.name);
  if (!created) return { status: "failed", message: NOTHING_HERE };
  ctx.refresh();
  return {
    status: "key_created",
    message: `Key “${input.name}” is ready. Copy it now: Mnemo keeps only its hash and won't show it again.`,
    key: created.key,
  };
});

export const revokeKeyAction = ownerAction(revokeKeyInput, async (ctx, input): Promise<AdminState> => {
  if (!(await revokeAgentKey(ctx.db, ctx.owner, ctx.workspace.id, input.keyId))) {
    return { status: "failed", message: NOTHING_HERE };
  }
  ctx.refresh();
  return { status: "success", message: "Revoked. Calls with this key are refused from now on." };
});
