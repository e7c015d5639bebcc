"use server";

/**
 * The People page's server actions. Each is a public POST endpoint: ownerAction
 * re-reads the caller's role from the database and answers anyone but an owner
 * as if nothing were there; the data layer scopes every query to the workspace.
 */
import type { AdminState, InviteState } from "@/lib/actions/admin-states";
import { NOTHING_HERE, ownerAction } from "@/lib/actions/owner-action";
import { invitePath, INVITE_DAYS } from "@/lib/admin/invites";
import { addPerson, changeRole, removePerson, renewInvite } from "@/lib/admin/people";
import { addPersonInput, changeRoleInput, personTarget } from "@/lib/validation/admin";

const inviteMessage = (name: string) =>
  `Send ${name} this link to set a password. It works once, for ${INVITE_DAYS} days, and won't be shown again.`;

const lastOwner = (workspace: string) =>
  `${workspace} needs at least one owner. Make someone else an owner first.`;

export const addPersonAction = ownerAction(addPersonInput, async (ctx, input): Promise<InviteState> => {
  const result = await addPerson(ctx.db, ctx.actor, ctx.workspace.id, input);
  switch (result.status) {
    case "joined":
      ctx.refresh();
      return { status: "success", message: `${result.name} joined ${ctx.workspace.name}.` };
    case "invited":
      ctx.refresh();
      return { status: "invited", message: inviteMessage(result.name), link: invitePath(result.token) };
    case "already_member":
      return { status: "failed", message: `${result.name} is already in ${ctx.workspace.name}.` };
  }
});

export const renewInviteAction = ownerAction(personTarget, async (ctx, input): Promise<InviteState> => {
  const result = await renewInvite(ctx.db, ctx.actor, ctx.workspace.id, input.userId);
  if (result.status === "not_found") return { status: "failed", message: NOTHING_HERE };
  ctx.refresh();
  return { status: "invited", message: inviteMessage(result.name), link: invitePath(result.token) };
});

export const changeRoleAction = ownerAction(changeRoleInput, async (ctx, input): Promise<AdminState> => {
  const result = await changeRole(ctx.db, ctx.actor, ctx.workspace.id, input.userId, input.role);
  switch (result.status) {
    case "changed": {
      ctx.refresh();
      const message = `${result.name} is now ${input.role === "owner" ? "an owner" : "a member"}.`;
      // An owner who made themselves a member can no longer see this page.
      const href = input.userId === ctx.owner.id ? `/w/${ctx.workspace.id}` : undefined;
      return { status: "success", message, href };
    }
    case "unchanged":
      return { status: "success", message: `${result.name} is already ${input.role === "owner" ? "an owner" : "a member"}.` };
    case "last_owner":
      return { status: "failed", message: lastOwner(ctx.workspace.name) };
    case "not_found":
      return { status: "failed", message: NOTHING_HERE };
  }
});

export const removePersonAction = ownerAction(personTarget, async (ctx, input): Promise<AdminState> => {
  const result = await removePerson(ctx.db, ctx.actor, ctx.workspace.id, input.userId);
  switch (result.status) {
    case "removed": {
      ctx.refresh();
      const href = input.userId === ctx.owner.id ? "/" : undefined;
      return { status: "success", message: `${result.name} is no longer in ${ctx.workspace.name}.`, href };
    }
    case "last_owner":
      return { status: "failed", message: lastOwner(ctx.workspace.name) };
    case "not_found":
      return { status: "failed", message: NOTHING_HERE };
  }
});
