/**
 * The shapes the Memory page accepts: its URL (filters, cursors, preview) and its
 * server actions' inputs. Forms send strings, so numbers and booleans are coerced.
 */
import { z } from "zod";
import { MAX_DECLINE_REASON } from "./fields";
import { FACT_ORDERS } from "@/lib/memory/fact-order";
import { MAX_FACT, MAX_VALID_YEARS, utcDay, validUntilProblem } from "@/lib/memory/rules";
import { MAX_BUDGET, MAX_QUESTION } from "./agent-api";

const id = z.string().trim().min(1).max(200);

/** The Memory page's filter for facts no agent recalled in the last RECENT_RECALL_DAYS days. */
export const NOT_RECALLED_RECENTLY = "not-in-30-days";
export const RECENT_RECALL_DAYS = 30;

/** Where an action acts: the workspace and the agent (by handle). Every action names them. */
export const agentTarget = z.object({ workspace: id, agent: id });

export const factTarget = agentTarget.extend({ factId: id });

const factText = z
  .string({ error: "Write the fact first." })
  .max(MAX_FACT * 4, `A fact is at most ${MAX_FACT} characters.`);

/**
 * "Keep it anyway" after the instruction-like warning. Only `true` (or the form's
 * "true") confirms; anything else, garbage included, means "not confirmed", which
 * is the cautious answer: the person is warned again, nothing is refused outright.
 */
const confirmed = z.unknown().optional().transform((value) => value === true || value === "true");

/** A fact's last day as a person picks it: a real day, from today (UTC) to MAX_VALID_YEARS ahead. */
const untilDay = z
  .string({ error: "Pick the last day the fact holds." })
  .trim()
  .pipe(z.iso.date({ error: "Pick the last day as a date, such as 2026-12-12.", abort: true }))
  .refine((day) => validUntilProblem(day, utcDay()) !== "past", "Pick today or a later day: the fact holds through it.")
  .refine(
    (day) => validUntilProblem(day, utcDay()) !== "too_far",
    `Pick a day at most ${MAX_VALID_YEARS} years ahead.`,
  );

/** The "Until" field: blank (or missing) is no end date, null. */
const untilField = z.preprocess((value) => (value === "" || value === undefined ? null : value), untilDay.nullable());

export const addFactInput = agentTarget.extend({
  text: factText,
  scope: z.enum(["person", "workspace", "channel"], { error: "Choose who the fact is for." }),
  channel: z.string().max(200).optional(),
  confirm: confirmed,
  valid_until: untilField,
});

export const correctFactInput = factTarget.extend({
  version: z.coerce.number().int().min(1),
  text: factText,
  confirm: confirmed,
  /** Left out: the end stays as it is. Blank: no end date. */
  valid_until: z.preprocess((value) => (value === "" ? null : value), untilDay.nullable().optional()),
});

/**
 * Approve a proposal as it reads, or edited first: then with the text and the
 * version the edit started from, checked like Edit's.
 */
export const approveProposalInput = factTarget
  .extend({ version: z.coerce.number().int().min(1).optional(), text: factText.optional(), confirm: confirmed })
  .refine((input) => (input.text === undefined) === (input.version === undefined), "Send the edited text with its version.");

/** Decline a proposal, with an optional reason (blank: none). */
export const declineProposalInput = factTarget.extend({
  reason: z
    .string()
    .trim()
    .max(MAX_DECLINE_REASON, `A reason is at most ${MAX_DECLINE_REASON} characters.`)
    .optional()
    .transform((value) => value || undefined),
});

/** Renew an expired fact: the new last day is required. */
export const renewFactInput = factTarget.extend({ valid_until: untilDay });

/** "Looks like …" on the Memory page: the newer fact and the older one it looks like. */
export const lookAlikeTarget = factTarget.extend({ otherId: id });

export const pinFactInput = factTarget.extend({
  pinned: z.union([z.boolean(), z.enum(["true", "false"]).transform((v) => v === "true")]),
});

/** The Memory page's URL. Anything unrecognised is dropped, never an error: a bad link still opens the page. */
export const memoryPageParams = z.object({
  q: z.string().max(200).optional().catch(undefined),
  scope: z.enum(["workspace", "channel", "person"]).optional().catch(undefined),
  channel: z.string().max(200).optional().catch(undefined),
  pinned: z.enum(["yes", "no"]).optional().catch(undefined),
  kept: z.enum(["agent", "people"]).optional().catch(undefined),
  source: z.enum(["message", "session", "person"]).optional().catch(undefined),
  /** "Not recalled in 30 days" (never recalled included). */
  recalled: z.enum([NOT_RECALLED_RECENTLY]).optional().catch(undefined),
  /** The list's order (fact-order.ts); left out, newest (recall order). */
  sort: z.enum(FACT_ORDERS).optional().catch(undefined),
  preview: z.string().max(200).optional().catch(undefined),
  // The preview's question and budget as typed: checked by recallPreviewInput, so a bad one is shown back with its message.
  // Cut at 10,000 characters (past any valid question) rather than dropped, so an overlong one still gets its message.
  preview_q: z.string().transform((text) => text.slice(0, 10_000)).optional().catch(undefined),
  preview_budget: z.string().max(200).optional().catch(undefined),
  after_workspace: z.string().max(500).optional().catch(undefined),
  after_channel: z.string().max(500).optional().catch(undefined),
  after_person: z.string().max(500).optional().catch(undefined),
});

export type MemoryPageParams = z.infer<typeof memoryPageParams>;

/**
 * The recall preview's question and budget, with the API's limits (agent-api.ts)
 * and messages a person can act on. Blank means "not given", as in the API.
 */
export const recallPreviewInput = z.object({
  question: z
    .string()
    .max(MAX_QUESTION, `Keep the question within ${MAX_QUESTION.toLocaleString("en-US")} characters.`)
    .optional(),
  budget: z
    .string()
    .trim()
    .regex(/^\d+$/, "Write the budget as a whole number of tokens, such as 500.")
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, "A budget is at least 1 token.")
        .max(MAX_BUDGET, `A budget is at most ${MAX_BUDGET.toLocaleString("en-US")} tokens.`),
    )
    .optional(),
});

/** Search params as Next gives them (a repeated key is an array): first values only. */
export function firstValues(params: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first !== "") out[key] = first;
  }
  return out;
}
