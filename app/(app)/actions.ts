"use server";

import { revalidatePath } from "next/cache";
import type { AdminState } from "@/lib/actions/admin-states";
import { userAction } from "@/lib/actions/user-action";
import { startOwnWorkspace } from "@/lib/admin/workspaces";
import { getDb } from "@/db";
import { signOut } from "@/lib/auth";
import { currentUser } from "@/lib/auth/session";
import { endSessions } from "@/lib/auth/session-version";
import { tryAgainIn } from "@/lib/auth/throttle";
import { createWorkspaceInput } from "@/lib/validation/admin";

/**
 * Signing out ends every session of this person, on every device (a copied
 * cookie included), not just this browser's cookie.
 */
export async function signOutAction(): Promise<void> {
  const user = await currentUser();
  if (user) await getDb().transaction((tx) => endSessions(tx, user.id));
  await signOut({ redirectTo: "/signin" });
}

/** Any signed-in person may start a workspace (a few an hour); they are its first owner. */
export const createWorkspaceAction = userAction(createWorkspaceInput, async (ctx, input): Promise<AdminState> => {
  const started = await startOwnWorkspace(ctx.db, { id: ctx.user.id, name: ctx.user.name }, input.name);
  if (started.status === "too_many") {
    return { status: "failed", message: `You started many workspaces lately. ${tryAgainIn(started.waitMs)}` };
  }
  revalidatePath("/");
  return { status: "success", message: `${input.name} is ready. Add the people in it.`, href: `/w/${started.id}/settings` };
});
