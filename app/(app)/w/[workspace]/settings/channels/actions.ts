"use server";

/**
 * The Channels page's server actions: owners only (ownerAction), every query
 * scoped to the workspace. A change decides who sees the channel's facts and
 * where they are recalled from the next request on.
 */
import type { AddChannelMemberState, AdminState } from "@/lib/actions/admin-states";
import { NOTHING_HERE, ownerAction } from "@/lib/actions/owner-action";
import {
  addChannelMember,
  createChannel,
  removeChannelMember,
  renameChannel,
  setChannelKind,
  type ChannelChangeResult,
} from "@/lib/admin/channels";
import {
  addChannelMemberInput,
  channelMemberInput,
  createChannelInput,
  renameChannelInput,
  setChannelKindInput,
} from "@/lib/validation/admin";

const KIND_NAMES = { public: "public", private: "private", dm: "a direct message" } as const;

const facts = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "fact" : "facts"}`;

const nameTaken = (name: string) => `There is already a channel named #${name}. Choose another name.`;

function changeAnswer(result: ChannelChangeResult, done: string, name: string, refresh: () => void): AdminState {
  switch (result.status) {
    case "changed":
      refresh();
      return { status: "success", message: done };
    case "unchanged":
      return { status: "success", message: "Nothing changed." };
    case "name_taken":
      return { status: "failed", message: nameTaken(name) };
    case "not_found":
      return { status: "failed", message: NOTHING_HERE };
  }
}

export const createChannelAction = ownerAction(createChannelInput, async (ctx, input): Promise<AdminState> => {
  const result = await createChannel(ctx.db, ctx.owner, ctx.workspace.id, input);
  if (result.status === "name_taken") return { status: "failed", message: nameTaken(input.name), field: "name" };
  ctx.refresh();
  return { status: "success", message: `#${input.name} is ready. Add the people who are in it.` };
});

export const renameChannelAction = ownerAction(renameChannelInput, async (ctx, input): Promise<AdminState> => {
  const result = await renameChannel(ctx.db, ctx.owner, ctx.workspace.id, input.channelId, input.name);
  return changeAnswer(result, `Renamed to #${input.name}.`, input.name, ctx.refresh);
});

export const setChannelKindAction = ownerAction(setChannelKindInput, async (ctx, input): Promise<AdminState> => {
  const result = await setChannelKind(ctx.db, ctx.owner, ctx.workspace.id, input.channelId, input.kind);
  return changeAnswer(result, `The channel is now ${KIND_NAMES[input.kind]}.`, "", ctx.refresh);
});

export const addChannelMemberAction = ownerAction(
  addChannelMemberInput,
  async (ctx, input): Promise<AddChannelMemberState> => {
    const result = await addChannelMember(ctx.db, ctx.owner, ctx.workspace.id, input.channelId, input.userId, input.confirmedFacts);
    switch (result.status) {
      case "not_found":
        return { status: "failed", message: NOTHING_HERE };
      case "unchanged":
        return { status: "success", message: `${result.name} is already in it.` };
      case "needs_confirmation": {
        const shown = input.confirmedFacts === undefined ? "" : ` now, not ${facts(input.confirmedFacts)}`;
        return {
          status: "failed",
          message: `${result.name} would see ${facts(result.reveals)} kept in #${result.channel}${shown}. Nothing changed: confirm to add them.`,
          confirmFacts: result.reveals,
        };
      }
      case "added":
        ctx.refresh();
        return {
          status: "success",
          message: result.reveals
            ? `${result.name} was added and can now see ${facts(result.reveals)} kept in #${result.channel}.`
            : `${result.name} was added.`,
        };
    }
  },
);

export const removeChannelMemberAction = ownerAction(channelMemberInput, async (ctx, input): Promise<AdminState> => {
  const result = await removeChannelMember(ctx.db, ctx.owner, ctx.workspace.id, input.channelId, input.userId);
  if (result.status === "not_found") return { status: "failed", message: NOTHING_HERE };
  if (result.status === "unchanged") return { status: "success", message: `${result.name} wasn't in it.` };
  ctx.refresh();
  return { status: "success", message: `${result.name} was taken out.` };
});
