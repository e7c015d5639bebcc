"use server";

/**
 * One agent's settings: rename, delete, its keys, and whether its facts wait for a person. Owners only (ownerAction);
 * every query names the workspace, so another workspace's agent or key is "not there".
 */
import type { AdminState, NewKeyState, WritePoliciesState } from "@/lib/actions/admin-states";
import { NOTHING_HERE, ownerAction } from "@/lib/actions/owner-action";
import { createAgentKey, KeyNameTaken, revokeAgentKey } from "@/lib/admin/agent-keys";
import { deleteAgent, renameAgent } from "@/lib/admin/agents";
import { setWritePolicies } from "@/lib/memory/proposals";
import {
  createKeyInput,
  deleteAgentInput,
  renameAgentInput,
  revokeKeyInput,
  writePoliciesInput,
  writePolicyFields,
} from "@/lib/validation/admin";

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
  let created;
  try {
    created = await createAgentKey(ctx.db, ctx.owner, ctx.workspace.id, input.agentId, input.name, { expiresAt: input.expiresOn });
  } catch (error) {
    if (error instanceof KeyNameTaken) return { status: "invalid_data", field: "name", message: error.message };
    throw error;
  }
  if (!created) return { status: "failed", message: NOTHING_HERE };
  ctx.refresh();
  const until = input.expiresOn ? ` It works until ${input.expiresOn.slice(0, 10)} (UTC).` : "";
  return {
    status: "key_created",
    message: `Key “${input.name}” is ready.${until} Copy it now: Mnemo keeps only its hash and won't show it again.`,
    key: created.key,
    keyId: created.id,
  };
});

export const revokeKeyAction = ownerAction(revokeKeyInput, async (ctx, input): Promise<AdminState> => {
  if (!(await revokeAgentKey(ctx.db, ctx.owner, ctx.workspace.id, input.keyId))) {
    return { status: "failed", message: NOTHING_HERE };
  }
  ctx.refresh();
  return { status: "success", message: "Revoked. Calls with this key are refused from now on." };
});

const saveWritePolicies = ownerAction(writePoliciesInput, async (ctx, input): Promise<WritePoliciesState> => {
  const policies = { workspaceFacts: input.workspaceFacts, channelFacts: input.channelFacts };
  const result = await setWritePolicies(ctx.db, ctx.owner, ctx.workspace.id, input.agentId, policies);
  switch (result.status) {
    case "changed":
      ctx.refresh();
      return { status: "success", message: "Saved." };
    case "unchanged":
      return { status: "success", message: "Nothing changed." };
    case "not_found":
    case "forbidden":
      return { status: "failed", message: NOTHING_HERE };
  }
});

/**
 * Whether the agent's workspace and channel facts wait for a person. Each choice is
 * checked first, on its own, so a refusal names its radio group (and nothing is
 * looked up for a malformed form); then the owner builder runs as for every action here.
 */
export async function setWritePoliciesAction(raw: FormData | Record<string, unknown>): Promise<WritePoliciesState> {
  // Anything may be posted here: a value that is not an object has no choices in it.
  const fields: Record<string, unknown> =
    raw instanceof FormData ? Object.fromEntries(raw) : typeof raw === "object" && raw !== null ? raw : {};
  for (const field of ["workspaceFacts", "channelFacts"] as const) {
    const parsed = writePolicyFields[field].safeParse(fields[field]);
    if (!parsed.success) return { status: "invalid_data", field, message: parsed.error.issues[0]?.message ?? "Choose one." };
  }
  return saveWritePolicies(raw);
}
