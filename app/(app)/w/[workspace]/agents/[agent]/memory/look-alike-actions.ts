"use server";

/**
 * The Memory page's answers to "Looks like …" (issue #15): Replace the older one and
 * Keep both. Each is a public POST endpoint: the builder re-checks session, membership
 * and agent, and look-alike-pairs.ts checks in SQL that the person may change both
 * facts of the pair. Forget this one is the page's usual forgetFactAction.
 */
import { memoryAction, NOT_FOUND } from "@/lib/actions/memory-action";
import type { FactActionState } from "@/lib/actions/memory-states";
import { keepBoth, replaceOlder } from "@/lib/memory/look-alike-pairs";
import { lookAlikeTarget } from "@/lib/validation/memory";

export const replaceOlderAction = memoryAction(lookAlikeTarget, async (ctx, input): Promise<FactActionState> => {
  const result = await replaceOlder(ctx.db, ctx.viewer, ctx.agent.id, input.factId, input.otherId);
  if (result.status === "not_found") return { status: "failed", message: NOT_FOUND };
  ctx.refresh();
  return { status: "success", message: "Replaced: the older fact is in this one's History." };
});

export const keepBothAction = memoryAction(lookAlikeTarget, async (ctx, input): Promise<FactActionState> => {
  const result = await keepBoth(ctx.db, ctx.viewer, ctx.agent.id, input.factId, input.otherId);
  if (result.status === "not_found") return { status: "failed", message: NOT_FOUND };
  ctx.refresh();
  return { status: "success", message: "Kept both." };
});
