"use server";

import { revalidatePath } from "next/cache";
import type { AdminState } from "@/lib/actions/admin-states";
import { userAction } from "@/lib/actions/user-action";
import { createWorkspace } from "@/lib/admin/workspaces";
import { signOut } from "@/lib/auth";
import { createWorkspaceInput } from "@/lib/validation/admin";

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/signin" });
}

/** Any signed-in person may start a workspace; they are its first owner. */
export const createWorkspaceAction = userAction(createWorkspaceInput, async (ctx, input): Promise<AdminState> => {
  const id = await createWorkspace(ctx.db, { id: ctx.user.id, name: ctx.user.name }, input.name);
  revalidatePath("/");
  return { status: "success", message: `${input.name} is ready. Add the people in it.`, href: `/w/${id}/settings` };
});
