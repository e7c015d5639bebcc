/**
 * What "Import workspace facts" answers the form, for a dry run ("check") and
 * for the import itself: counts and item numbers, never fact text, and one
 * sentence saying what happened or what stops the file.
 */
import type { Db } from "@/db/client";
import { NOTHING_HERE } from "@/lib/actions/owner-action";
import { importWorkspaceFacts, planImport, readFactsFile, type ImportPlan } from "./import";
import { MAX_FACTS } from "./rules";
import type { PersonActor } from "./writes";

export type ImportSummary = {
  toAdd: number;
  duplicates: number;
  otherScopes: number;
  /** The first refused items, by number in the file (1-based), with why. */
  refused: { item: number; reason: string }[];
  refusedCount: number;
  /** The first items that read like instructions to the agent, by number, with why; they are imported as written once the owner goes ahead. */
  instructionLike: { item: number; reason: string }[];
  instructionLikeCount: number;
  /** Facts the agent keeps now, and how far past the limit the import would go. */
  kept: number;
  overLimitBy: number;
};

export type ImportState =
  | { status: "idle" }
  /** The dry run: what would happen. `canImport` is false when anything stops the whole file. */
  | { status: "checked"; summary: ImportSummary; canImport: boolean; message: string }
  | { status: "imported"; summary: ImportSummary; message: string }
  | { status: "failed" | "invalid_data"; message: string; summary?: ImportSummary };

export type ImportIntent = "check" | "import";

const SHOW_REFUSED = 10;

function summaryOf(plan: ImportPlan): ImportSummary {
  return {
    toAdd: plan.add.length,
    duplicates: plan.duplicates,
    otherScopes: plan.otherScopes,
    refused: plan.refused.slice(0, SHOW_REFUSED),
    refusedCount: plan.refused.length,
    instructionLike: plan.instructionLike.slice(0, SHOW_REFUSED),
    instructionLikeCount: plan.instructionLike.length,
    kept: plan.kept,
    overLimitBy: plan.overLimitBy,
  };
}

const facts = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "fact" : "facts"}`;

/** The check's warning about text that reads like instructions to the agent, or nothing. */
function instructionNote(summary: ImportSummary): string {
  const n = summary.instructionLikeCount;
  if (!n) return "";
  return ` ${n === 1 ? "One of them reads" : `${n.toLocaleString("en-US")} of them read`} like an instruction to the agent (listed above): agents treat facts as notes, but such a fact can still mislead them. Remove ${n === 1 ? "it" : "them"} from the file, or import anyway.`;
}

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

/**
 * Counts (check) or imports (import) the facts file `text` into `agent`'s
 * workspace memory for `owner`, whose ownership the import checks again inside
 * its own transaction.
 */
export async function answerImport(
  db: Db,
  owner: PersonActor,
  agent: { id: string; handle: string; name: string; workspaceId: string },
  intent: ImportIntent,
  text: string,
): Promise<ImportState> {
  const file = readFactsFile(text);
  if ("error" in file) return { status: "invalid_data", message: file.error };

  if (intent === "check") {
    const summary = summaryOf(await planImport(db, agent.id, file.items));
    const stop = blocker(summary, agent.name);
    return {
      status: "checked",
      summary,
      canImport: stop === null,
      message: stop ?? `Ready to import ${facts(summary.toAdd)}.${instructionNote(summary)} Nothing has changed yet.`,
    };
  }

  const result = await importWorkspaceFacts(db, owner, agent, file.items);
  if (result.status === "not_allowed") return { status: "failed", message: NOTHING_HERE };
  const summary = summaryOf(result.plan);
  if (result.status !== "imported" || !summary.toAdd) {
    return { status: "failed", message: `Nothing was imported. ${blocker(summary, agent.name)}`, summary };
  }
  return {
    status: "imported",
    summary,
    message: `Imported ${facts(summary.toAdd)} into ${agent.name}'s workspace memory, pinned and told by you.`,
  };
}
