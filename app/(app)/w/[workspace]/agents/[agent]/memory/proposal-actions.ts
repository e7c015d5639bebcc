"use server";

/**
 * The Inbox's server actions: approve a proposal (as it reads, or edited first)
 * or decline it. Each is a public POST endpoint: memoryAction re-checks session,
 * membership and agent, and the data layer (lib/memory/proposals.ts) decides in
 * its query who may decide — owners for workspace facts, a channel's readers for
 * its facts. Anyone else gets the answer a missing fact gets.
 */
import { instructionWarning, secretMessage } from "@/lib/actions/fact-text-answers";
import { memoryAction } from "@/lib/actions/memory-action";
import type { FactActionState } from "@/lib/actions/memory-states";
import { approveProposal, declineProposal } from "@/lib/memory/proposals";
import { approveProposalInput, declineProposalInput } from "@/lib/validation/memory";

/** What the Inbox says about a proposal that is gone: decided by someone else, or never theirs to decide. */
const NO_PROPOSAL = "There is no such proposal you can decide. Someone may have decided it already.";

export const approveProposalAction = memoryAction(approveProposalInput, async (ctx, input): Promise<FactActionState> => {
  const edit = input.text !== undefined && input.version !== undefined ? { body: input.text, fromVersion: input.version } : undefined;
  // Edited text is the person's own words: warned about like Edit's, before anything changes.
  const warning = edit ? instructionWarning(edit.body, input.confirm) : null;
  if (warning) return warning;
  const result = await approveProposal(ctx.db, ctx.viewer, ctx.agent.id, input.factId, edit);
  switch (result.status) {
    case "approved":
      ctx.refresh();
      return { status: "success", message: `Approved: ${ctx.agent.name} recalls it from now on.` };
    case "stale":
      return { status: "failed", message: "The agent changed this proposal while you were editing it. Cancel to read it again." };
    case "duplicate":
      return { status: "failed", message: `${ctx.agent.name} already has a fact with this text here.` };
    case "refused":
      return result.problem.status === "looks_like_secret"
        ? { status: "invalid_data", message: secretMessage(result.problem.what) }
        : { status: "invalid_data", message: "A fact can't be empty." };
    case "not_found":
      return { status: "failed", message: NO_PROPOSAL };
  }
});

export const declineProposalAction = memoryAction(declineProposalInput, async (ctx, input): Promise<FactActionState> => {
  const result = await declineProposal(ctx.db, ctx.viewer, ctx.agent.id, input.factId, input.reason);
  if (result.status === "not_found") return { status: "failed", message: NO_PROPOSAL };
  ctx.refresh();
  return { status: "success", message: "Declined. It is in Recently forgotten." };
});
