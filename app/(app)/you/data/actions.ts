"use server";

/**
 * The "Your data" page's server actions. Each is a public POST endpoint: the
 * person is read from the session in the database (userAction, currentUser),
 * and nothing in the input names a person, so anyone can act only on their own
 * data. The work itself is lib/privacy/'s.
 */
import { revalidatePath } from "next/cache";
import { getDb } from "@/db";
import { SIGNED_OUT, userAction } from "@/lib/actions/user-action";
import type { DeleteAccountPreview, DeleteAccountState, EraseState } from "@/lib/actions/your-data-states";
import { signOut } from "@/lib/auth";
import { currentUser, membershipOf } from "@/lib/auth/session";
import { deleteAccount, type DeleteAccountPlan } from "@/lib/privacy/delete-account";
import { erasePersonFacts } from "@/lib/privacy/erase-person-facts";
import { endAllSessions } from "@/lib/privacy/sessions";
import { deleteAccountInput, eraseMyFactsInput } from "@/lib/validation/your-data";

const facts = (n: number) => `${n} ${n === 1 ? "fact" : "facts"}`;

/** Dry run (confirm "0"): how many facts kept just for me each agent holds. Confirm "1": erase them, at once. */
export const eraseMyFactsAction = userAction(
  eraseMyFactsInput,
  async (ctx, input): Promise<EraseState> => {
    let place = "every workspace";
    if (input.workspace) {
      const membership = await membershipOf(ctx.user.id, input.workspace);
      if (!membership) return { status: "invalid_data", message: "Choose a workspace from the list." };
      place = membership.name;
    }
    const workspaceId = input.workspace || undefined;
    const by = { id: ctx.user.id, name: ctx.user.name };
    if (input.confirm === "0") {
      const found = await erasePersonFacts(ctx.db, ctx.user.id, { workspaceId, dryRun: true, by });
      return {
        status: "preview",
        workspace: input.workspace,
        total: found.total,
        agents: found.agents.map((a) => ({ workspace: a.workspace.name, agent: a.agent.name, count: a.facts })),
      };
    }
    const erased = await erasePersonFacts(ctx.db, ctx.user.id, { workspaceId, dryRun: false, by });
    revalidatePath("/you/data");
    return {
      status: "success",
      message: erased.total
        ? `Erased ${facts(erased.total)} kept just for you in ${place}. They are gone, history included.`
        : `Nothing was kept just for you in ${place}, so nothing was erased.`,
    };
  },
  "your-data",
);

/** What the page shows of a deletion plan: counts and workspace names, never fact text. */
function previewOf(plan: DeleteAccountPlan): DeleteAccountPreview {
  return {
    personFacts: plan.personFactsTotal,
    renamedFacts: plan.renamed.facts,
    renamedEvents: plan.renamed.events,
    toldFactsStay: plan.toldFactsStay,
    soloWorkspaces: plan.deletesWorkspaces,
    lastOwnerOf: plan.lastOwnerOf,
  };
}

/**
 * Dry run (confirm "0"): what deleting the account does. Confirm "1": delete it, with
 * the workspaces the person is alone in when their names are typed back; then the
 * browser is signed out (the account, and so every session, is gone).
 */
export const deleteAccountAction = userAction(
  deleteAccountInput,
  async (ctx, input): Promise<DeleteAccountState> => {
    const result = await deleteAccount(ctx.db, ctx.user.id, {
      dryRun: input.confirm === "0",
      confirmWorkspaceNames: Object.values(input.names),
    });
    switch (result.status) {
      case "not_found":
        return { status: "failed", message: SIGNED_OUT };
      case "dry_run":
        return { status: "preview", ...previewOf(result.plan) };
      case "last_owner":
        return {
          status: "failed",
          message: `You are the last owner of ${namesOf(result.workspaces)}, where others remain. Make someone else an owner there first.`,
          wrongNames: [],
          ...previewOf(result.plan),
        };
      case "confirm_names":
        return {
          status: "failed",
          message: `Type the name of ${namesOf(result.workspaces)} to delete it with your account.`,
          wrongNames: result.workspaces.map((w) => w.id),
          ...previewOf(result.plan),
        };
      case "deleted":
        // Outside any try: signOut answers with a redirect to sign-in.
        await signOut({ redirectTo: "/signin" });
        return { status: "failed", message: SIGNED_OUT };
    }
  },
  "your-data",
);

const namesOf = (workspaces: { name: string }[]) => workspaces.map((w) => w.name).join(", ");

/** Ends every session of the person, this one included, then leaves for sign-in. */
export async function signOutEverywhereAction(): Promise<void> {
  const user = await currentUser();
  if (user) await endAllSessions(getDb(), user.id);
  await signOut({ redirectTo: "/signin" });
}
