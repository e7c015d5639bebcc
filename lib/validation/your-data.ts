/**
 * The shapes the "Your data" page's actions accept (app/(app)/you/data/actions.ts).
 * None names a person: every action acts on the signed-in person only.
 */
import { z } from "zod";
import { confirmedWorkspace } from "./fields";

const workspaceId = z.string().trim().max(200, "Choose a workspace from the list.");

/** The submit button says whether this is the dry run ("0") or the confirmation ("1"). */
const confirm = z.enum(["0", "1"], { error: "Use the page's buttons." }).default("0");

/** Erase facts kept just for me: in one workspace, or everywhere (blank). */
export const eraseMyFactsInput = z.object({ workspace: workspaceId.default(""), confirm });

/** Delete my account: the typed names of the workspaces deleted with it, by workspace id. */
export const deleteAccountInput = z
  .looseObject({ confirm })
  .transform(({ confirm, ...rest }) => {
    const names: Record<string, string> = {};
    for (const [field, value] of Object.entries(rest)) {
      const workspace = confirmedWorkspace(field);
      if (workspace !== null && typeof value === "string") names[workspace] = value.slice(0, 200);
    }
    return { confirm, names };
  });
