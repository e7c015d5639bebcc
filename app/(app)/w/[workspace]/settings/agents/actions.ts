"use server";

/** The Agents page's server action: owners only (ownerAction), scoped to the workspace. */
import type { AdminState } from "@/lib/actions/admin-states";
import { ownerAction } from "@/lib/actions/owner-action";
import { createAgent } from "@/lib/admin/agents";
import { createAgentInput } from "@/lib/validation/admin";

export const createAgentAction = ownerAction(createAgentInput, async (ctx, input): Promise<AdminState> => {
  const result = await createAgent(ctx.db, ctx.owner, ctx.workspace.id, input);
  if (result.status === "handle_taken") {
    return { status: "failed", message: `There is already an agent @${input.handle}. Choose another handle.`, field: "handle" };
  }
  ctx.refresh();
  return {
    status: "success",
    message: `${input.name} is ready. Create a key so it can call the API.`,
    href: `/w/${ctx.workspace.id}/settings/agents/${result.handle}`,
  };
});
