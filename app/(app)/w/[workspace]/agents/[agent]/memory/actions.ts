"use server";

/**
 * The Memory page's server actions. Each is a public POST endpoint: the builder
 * re-checks session, membership and agent; the data layer applies the rule in
 * the query itself. Answers are small states, never rows.
 */
import { memoryAction, NOT_FOUND } from "@/lib/actions/memory-action";
import { instructionWarning, secretMessage } from "@/lib/actions/fact-text-answers";
import type { FactActionState, HistoryState } from "@/lib/actions/memory-states";
import { readableChannels } from "@/lib/memory/channels";
import { MAX_FACTS } from "@/lib/memory/rules";
import { factHistory } from "@/lib/memory/store";
import { tellFact } from "@/lib/memory/tell";
import { correctFact, forgetFact, purgeFact, restoreFact, setPinned, setValidUntil } from "@/lib/memory/writes";
import { dayInWords } from "@/lib/day-words";
import { addFactInput, correctFactInput, factTarget, pinFactInput, renewFactInput } from "@/lib/validation/memory";

function fullMessage(agentName: string): string {
  return `${agentName}'s memory is full (${MAX_FACTS.toLocaleString("en-US")} facts). Forget a fact before adding another.`;
}

export const addFactAction = memoryAction(addFactInput, async (ctx, input): Promise<FactActionState> => {
  const warning = instructionWarning(input.text, input.confirm);
  if (warning) return warning;
  const result = await tellFact(ctx.db, ctx.viewer, ctx.agent, {
    text: input.text,
    scope: input.scope,
    channelId: input.channel,
    // Blank leaves a twin's end as it is (and a new fact has none): only a day picked moves it.
    validUntil: input.valid_until ?? undefined,
  });
  switch (result.status) {
    case "created": {
      ctx.refresh();
      // A Just you fact is recalled only in the person's own DM: without one, "will remember" would not be true.
      const nowhere = input.scope === "person" && !(await readableChannels(ctx.db, ctx.viewer)).some((c) => c.isOwnDm);
      const message = nowhere
        ? `Kept, but ${ctx.agent.name} will not recall this anywhere until you have a DM with ${ctx.agent.name}.`
        : `${ctx.agent.name} will remember that.`;
      return { status: "success", message, factId: result.fact.id };
    }
    case "deduplicated":
      ctx.refresh();
      return { status: "success", message: `${ctx.agent.name} already knew that; it is marked as fresh again.`, factId: result.fact.id };
    case "invalid_fact":
      return { status: "invalid_data", message: "Write the fact first." };
    case "looks_like_secret":
      return { status: "invalid_data", message: secretMessage(result.what) };
    case "memory_full":
      return { status: "failed", message: fullMessage(ctx.agent.name) };
    case "not_allowed":
    // A person's Add names no fact to replace; the case is here for the switch to be whole.
    case "replace_refused":
    case "replace_widens":
      return { status: "failed", message: "You can't keep a fact there." };
  }
});

export const correctFactAction = memoryAction(correctFactInput, async (ctx, input): Promise<FactActionState> => {
  // Before the write: the old text stays exactly as it was until the person confirms.
  const warning = instructionWarning(input.text, input.confirm);
  if (warning) return warning;
  const result = await correctFact(ctx.db, ctx.viewer, ctx.agent.id, input.factId, input.version, input.text);
  switch (result.status) {
    case "corrected":
    case "unchanged": {
      // The text first (it names the version the edit started from), then the end date, if the form sent one.
      const until =
        input.valid_until === undefined
          ? null
          : await setValidUntil(ctx.db, ctx.viewer, ctx.agent.id, input.factId, input.valid_until);
      if (until?.status === "not_found") return { status: "failed", message: NOT_FOUND };
      const renewed = until?.status === "renewed";
      if (result.status === "corrected" || renewed) ctx.refresh();
      if (result.status === "corrected") return { status: "success", message: "Corrected." };
      return { status: "success", message: renewed ? "The end date is saved." : "Nothing changed." };
    }
    case "stale":
      return {
        status: "stale",
        message: "Someone changed this fact while you were editing it.",
        current: result.current,
      };
    case "duplicate":
      return { status: "failed", message: `${ctx.agent.name} already has a fact with this text here.` };
    case "invalid_fact":
      return { status: "invalid_data", message: "A fact can't be empty." };
    case "looks_like_secret":
      return { status: "invalid_data", message: secretMessage(result.what) };
    case "not_found":
      return { status: "failed", message: NOT_FOUND };
  }
});

/** Renew an expired fact: a new last day, from which it is recalled again until then. */
export const renewFactAction = memoryAction(renewFactInput, async (ctx, input): Promise<FactActionState> => {
  const result = await setValidUntil(ctx.db, ctx.viewer, ctx.agent.id, input.factId, input.valid_until);
  if (result.status === "not_found") return { status: "failed", message: NOT_FOUND };
  ctx.refresh();
  return { status: "success", message: `Renewed: recalled again until ${dayInWords(input.valid_until)}.` };
});

export const pinFactAction = memoryAction(pinFactInput, async (ctx, input): Promise<FactActionState> => {
  const result = await setPinned(ctx.db, ctx.viewer, ctx.agent.id, input.factId, input.pinned);
  if (result.status === "not_found") return { status: "failed", message: NOT_FOUND };
  ctx.refresh();
  return { status: "success", message: input.pinned ? "Pinned." : "Unpinned." };
});

export const forgetFactAction = memoryAction(factTarget, async (ctx, input): Promise<FactActionState> => {
  const result = await forgetFact(ctx.db, ctx.viewer, ctx.agent.id, input.factId);
  if (result.status === "not_found") return { status: "failed", message: NOT_FOUND };
  ctx.refresh();
  return { status: "success", message: "Forgotten." };
});

export const restoreFactAction = memoryAction(factTarget, async (ctx, input): Promise<FactActionState> => {
  const result = await restoreFact(ctx.db, ctx.viewer, ctx.agent.id, input.factId);
  switch (result.status) {
    case "restored":
      ctx.refresh();
      return { status: "success", message: "Restored." };
    case "duplicate":
      return { status: "failed", message: `${ctx.agent.name} already remembers a fact with this text.` };
    case "memory_full":
      return { status: "failed", message: fullMessage(ctx.agent.name) };
    case "not_found":
      return { status: "failed", message: NOT_FOUND };
  }
});

export const purgeFactAction = memoryAction(factTarget, async (ctx, input): Promise<FactActionState> => {
  const result = await purgeFact(ctx.db, ctx.viewer, ctx.agent.id, input.factId);
  if (result.status === "not_found") return { status: "failed", message: NOT_FOUND };
  ctx.refresh();
  return { status: "success", message: "Forgotten for good." };
});

export const factHistoryAction = memoryAction(
  factTarget,
  async (ctx, input): Promise<HistoryState> => {
    const events = await factHistory(ctx.db, ctx.viewer, ctx.agent.id, input.factId);
    if (!events.length) return { status: "failed", message: "There is no such fact you can see." };
    return { status: "success", events };
  },
);
