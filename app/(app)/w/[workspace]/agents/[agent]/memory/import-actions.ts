"use server";

/**
 * The owner's import of workspace facts: a dry run ("check") that counts, then
 * the import itself, both from the same file. A public POST endpoint like every
 * server action: ownerAction re-checks session and ownership, and the import
 * checks ownership again inside its own transaction.
 */
import type { ImportState, ImportSummary } from "@/lib/actions/import-states";
import { NOTHING_HERE, ownerAction } from "@/lib/actions/owner-action";
import { agentByHandle } from "@/lib/agents";
import { importWorkspaceFacts, planImport, readFactsFile, type ImportPlan } from "@/lib/memory/import";
import { MAX_FACTS } from "@/lib/memory/rules";
import { importFactsInput } from "@/lib/validation/facts-file";

const SHOW_REFUSED = 10;

function summaryOf(plan: ImportPlan): ImportSummary {
  return {
    toAdd: plan.add.length,
    duplicates: plan.duplicates,
    otherScopes: plan.otherScopes,
    refused: plan.refused.slice(0, SHOW_REFUSED),
    refusedCount: plan.refused.length,
    kept: plan.kept,
    overLimitBy: plan.overLimitBy,
  };
}

const facts = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "fact" : "facts"}`;

/** Why the whole file can't be imported, or null when it can. */
function blocker(summary: ImportSummary, agentName: string): string | null {
  if (summary.refusedCount) {
    return `Nothing can be imported until the refused ${summary.refusedCount === 1 ? "item is" : "items are"} fixed or removed from the file.`;
  }
  if (summary.overLimitBy) {
    return `${agentName} keeps ${facts(summary.kept)}; adding ${facts(summary.toAdd)} would pass the limit of ${facts(MAX_FACTS)} by ${summary.overLimitBy.toLocaleString("en-US")}. Forget some facts first, or import a smaller file.`;
  }
  if (!summary.toAdd) return `There is nothing new to import: ${agentName} already knows every workspace fact of this file.`;
  return null;
}

export const importFactsAction = ownerAction(importFactsInput, async (ctx, input): Promise<ImportState> => {
  const agent = await agentByHandle(ctx.db, ctx.workspace.id, input.agent);
  if (!agent) return { status: "failed", message: NOTHING_HERE };
  const file = readFactsFile(await input.file.text());
  if ("error" in file) return { status: "invalid_data", message: file.error };

  if (input.intent === "check") {
    const summary = summaryOf(await planImport(ctx.db, agent.id, file.items));
    const stop = blocker(summary, agent.name);
    return {
      status: "checked",
      summary,
      canImport: stop === null,
      message: stop ?? `Ready to import ${facts(summary.toAdd)}. Nothing has changed yet.`,
    };
  }

  const owner = { workspaceId: ctx.workspace.id, userId: ctx.owner.id, name: ctx.owner.name, handle: ctx.owner.handle };
  const result = await importWorkspaceFacts(ctx.db, owner, agent, file.items);
  if (result.status === "not_allowed") return { status: "failed", message: NOTHING_HERE };
  const summary = summaryOf(result.plan);
  if (result.status !== "imported" || !summary.toAdd) {
    return { status: "failed", message: `Nothing was imported. ${blocker(summary, agent.name)}`, summary };
  }
  ctx.refresh();
  return {
    status: "imported",
    summary,
    message: `Imported ${facts(summary.toAdd)} into ${agent.name}'s workspace memory, pinned and told by you.`,
  };
});
