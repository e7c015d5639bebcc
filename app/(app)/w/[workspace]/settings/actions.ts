"use server";

/**
 * The People page's server actions. Each is a public POST endpoint: ownerAction
 * re-reads the caller's role from the database and answers anyone but an owner
 * as if nothing were there; the data layer scopes every query to the workspace.
 */
import type { AdminState, InviteState } from "@/lib/actions/admin-states";
import { NOTHING_HERE, ownerAction } from "@/lib/actions/owner-action";
import { cancelInvite, invitePath, INVITE_DAYS, renewInvite } from "@/lib/admin/invites";
import { addPerson, changeRole, removePerson } from "@/lib/admin/people";
import { addPersonInput, changeRoleInput, inviteTarget, removePersonInput } from "@/lib/validation/admin";

// One answer whether or not the address has an account, so adding a person tells the owner nothing about anyone.
const inviteMessage = (email: string) =>
  `Send this link to ${email}. It works once, for ${INVITE_DAYS} days, and won't be shown again. ` +
  "They join when they open it: with their Mnemo account if they have one, or by choosing a password.";

const lastOwner = (workspace: string) =>
  `${workspace} needs at least one owner. Make someone else an owner first.`;

export const addPersonAction = ownerAction(addPersonInput, async (ctx, input): Promise<InviteState> => {
  const result = await addPerson(ctx.db, ctx.owner, ctx.workspace.id, input);
  switch (result.status) {
    case "invited":
      ctx.refresh();
      return { status: "invited", message: inviteMessage(result.email), link: invitePath(result.token) };
    case "already_member":
      return { status: "failed", message: `${result.email} is already in ${ctx.workspace.name}.`, field: "email" };
  }
});

export const renewInviteAction = ownerAction(inviteTarget, async (ctx, input): Promise<InviteState> => {
  const result = await renewInvite(ctx.db, ctx.owner, ctx.workspace.id, input.inviteId);
  if (result.status === "not_found") return { status: "failed", message: NOTHING_HERE };
  ctx.refresh();
  return { status: "invited", message: inviteMessage(result.email), link: invitePath(result.token) };
});

export const cancelInviteAction = ownerAction(inviteTarget, async (ctx, input): Promise<AdminState> => {
  const result = await cancelInvite(ctx.db, ctx.owner, ctx.workspace.id, input.inviteId);
  if (result.status === "not_found") return { status: "failed", message: NOTHING_HERE };
  ctx.refresh();
  return { status: "success", message: `The invitation for ${result.email} is withdrawn; its link no longer works.` };
});

export const changeRoleAction = ownerAction(changeRoleInput, async (ctx, input): Promise<AdminState> => {
  const result = await changeRole(ctx.db, ctx.owner, ctx.workspace.id, input.userId, input.role);
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

export const removePersonAction = ownerAction(removePersonInput, async (ctx, input): Promise<AdminState> => {
  const result = await removePerson(ctx.db, ctx.owner, ctx.workspace.id, input.userId, { eraseTheirFacts: input.eraseFacts });
  switch (result.status) {
    case "removed": {
      ctx.refresh();
      const href = input.userId === ctx.owner.id ? "/" : undefined;
      // A count, never the text: owners never see facts kept just for someone else.
      const erased = input.eraseFacts
        ? ` ${result.erased} ${result.erased === 1 ? "fact" : "facts"} kept just for them ${result.erased === 1 ? "was" : "were"} erased.`
        : "";
      return { status: "success", message: `${result.name} is no longer in ${ctx.workspace.name}.${erased}`, href };
    }
    case "last_owner":
      return { status: "failed", message: lastOwner(ctx.workspace.name) };
    case "not_found":
      return { status: "failed", message: NOTHING_HERE };
  }
});
