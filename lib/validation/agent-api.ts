/**
 * The agent API's inputs and outputs, as zod schemas. The REST routes
 * validate with them, the MCP tools take them as their input schemas, and the
 * OpenAPI document is generated from them — one definition, three uses.
 */
import { z } from "zod";
import { MAX_VALID_YEARS, RECALL_LIMIT, SCOPES, utcDay, validUntilProblem } from "@/lib/memory/rules";

/** Ids and short labels: no control characters (NUL and friends break logs and prompts). */
const NO_CONTROLS = /^[^\u0000-\u001f\u007f-\u009f]*$/;

/** "required" for a missing field, "must be a string" for another type: messages that say what to send. */
const text = () =>
  z.string({ error: (issue) => (issue.input === undefined ? "required" : "must be a string") });

const id = () =>
  text()
    .min(1, "must not be empty")
    .max(200, "must be at most 200 characters")
    .regex(NO_CONTROLS, "must not contain control characters");

const channel = id().describe(
  "The id of the channel (or DM) the conversation is in. Mnemo derives the place from its own channel table.",
);
const asker = id().describe(
  "The user id of the person the agent is answering, if any. They must be able to read the channel.",
);

/** A whole number within bounds, from JSON or from a query string ("12"). */
const wholeNumber = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : value),
    z
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max.toLocaleString("en-US")}`),
  );

export const MAX_QUESTION = 2000;
/** The largest budget accepted: far beyond any model's context, so it only refuses nonsense. */
export const MAX_BUDGET = 1_000_000;

const question = text()
  .max(MAX_QUESTION, `must be at most ${MAX_QUESTION.toLocaleString("en-US")} characters`)
  .describe(
    "What the conversation is about right now: pass the user's latest message or question, as they wrote it. " +
      "Facts that answer it come first (after pinned ones). Leave it out for the newest facts.",
  );
const limit = wholeNumber(1, RECALL_LIMIT).describe(
  `At most this many facts (1–${RECALL_LIMIT}; ${RECALL_LIMIT} when left out).`,
);
const budget = wholeNumber(1, MAX_BUDGET).describe(
  "The most tokens the prompt section may take, header included (counted with the o200k_base tokenizer). " +
    "Facts that do not fit are left out whole, never cut.",
);

/**
 * `GET` and `POST /api/v1/recall`. Any other parameter (such as `kind` or `people`)
 * is ignored. Without `q` the order is recency; `limit` and `budget` apply either way.
 */
export const recallInput = z.object({
  channel,
  asker: asker.optional(),
  q: question.optional(),
  limit: limit.optional(),
  budget: budget.optional(),
});
export type RecallInput = z.infer<typeof recallInput>;

/**
 * The body of `POST /api/v1/recall`: the same fields and no others. A query string
 * may carry a client's stray parameters; a JSON body's extra field is a mistake
 * (MCP's `query` for `q`) that would silently drop the question, so it is a 422.
 */
export const recallBody = recallInput.strict();

/** The MCP tool `recall`: the same, with the question named for a model (`query`). */
export const recallToolInput = z.object({
  channel,
  asker: asker.optional(),
  query: question.optional(),
  limit: limit.optional(),
  budget: budget.optional(),
});
export type RecallToolInput = z.infer<typeof recallToolInput>;

/**
 * A new end date for a fact: a real calendar day, today (UTC) or later and at most
 * MAX_VALID_YEARS ahead. Judged when the request is parsed, so "today" is the request's.
 */
export const validUntilInput = z.iso
  // abort: a string that is no date gets that message alone, not the range's too.
  .date({ error: 'must be a date, "YYYY-MM-DD"', abort: true })
  .refine((day) => validUntilProblem(day, utcDay()) !== "past", "must be today or later (UTC)")
  .refine(
    (day) => validUntilProblem(day, utcDay()) !== "too_far",
    `must be at most ${MAX_VALID_YEARS} years ahead`,
  );

/** The body of `POST /api/v1/memories` and the MCP tool `remember`. */
export const rememberInput = z
  .strictObject({
    channel,
    asker: asker.optional(),
    // Blank text is refused by cleanFact (422 invalid_fact), after the rules have their say; the document says so here.
    fact: text().meta({ minLength: 1, pattern: "\\S" }).describe(
      "One short fact in plain words, one paragraph. Whitespace is collapsed; past 500 characters it is cut. " +
        "Never a secret: text that looks like a password, token or key is refused.",
    ),
    scope: z
      .enum(SCOPES)
      .optional()
      .describe(
        "The scope you would like. You get it only when the conversation allows it: `workspace` only from a " +
          "public channel; otherwise the narrowest scope that fits (`narrowed` says so).",
      ),
    private: z
      .boolean()
      .optional()
      .describe(
        "True when this turn read something the whole workspace can't read: the fact is then kept as the " +
          "asker's own (scope person), wherever it was said. Needs `asker`.",
      ),
    source: z
      .strictObject({
        kind: z.enum(["message", "session"]).describe("A message in a conversation, or a working session."),
        ref: id().optional().describe("Your id for the message or session, kept with the fact."),
        label: text()
          .max(200, "must be at most 200 characters")
          .regex(NO_CONTROLS, "must not contain control characters")
          .optional()
          .describe("Accepted but not stored: Mnemo writes the source label itself from the channel and the asker."),
      })
      .optional()
      .describe("Where the fact came from. Defaults to a message."),
    valid_until: validUntilInput
      .optional()
      .describe(
        "For facts that stop being true on a known date — a promotion ending, someone away until a day, a " +
          'temporary rule: the last day it holds, "YYYY-MM-DD" (UTC), today or later and at most ' +
          `${MAX_VALID_YEARS} years ahead. From the next day it is no longer recalled. Leave it out for facts ` +
          "with no known end. Remembering a fact you already keep with a new date moves its end.",
      ),
    replaces: id()
      .optional()
      .describe(
        "The id of a fact you keep (from recall) that this one makes untrue: \"We now release on Wednesdays.\" " +
          "replaces \"Releases go out on Thursdays.\" The old fact is retired in the same write — never recalled " +
          "again, its history kept with the new one — so recall never offers both. Allowed only for a fact you " +
          "could forget here (same 404 and 403 as forget). The same write sent again after it succeeded (a " +
          "retry) answers as a repeat of the new fact, not 404.",
      ),
  })
  .refine((body) => !body.private || body.asker !== undefined, {
    path: ["asker"],
    message: "required when private is true: the fact becomes the asker's own",
  })
  // The refinement above, for JSON Schema readers (OpenAPI, MCP clients), who cannot see refinements.
  .meta({ if: { properties: { private: { const: true } }, required: ["private"] }, then: { required: ["asker"] } });
export type RememberInput = z.infer<typeof rememberInput>;

/** `DELETE /api/v1/memories/{id}` and the MCP tool `forget`. */
export const forgetInput = z.object({
  id: id().describe("The id of the fact to forget, as recall gave it."),
  channel,
  asker: asker.optional(),
});
export type ForgetInput = z.infer<typeof forgetInput>;

// --- Outputs ---

export const memory = z
  .object({
    id: z.string(),
    agent_id: z.string(),
    scope: z.enum(SCOPES),
    scope_ref: z.string().describe("'' for workspace facts, the channel id or the person's user id otherwise."),
    scope_label: z.string().nullable().describe("The channel's name (#support) or the person's name."),
    body: z.string(),
    source_kind: z.enum(["message", "session", "person"]),
    source_ref: z.string().nullable(),
    source_label: z.string().nullable().describe('Who said it where: "@ana in #support".'),
    source_channel_id: z.string().nullable(),
    created_by: z.string(),
    created_by_kind: z.enum(["agent", "user"]),
    pinned: z.boolean(),
    status: z
      .enum(["live", "proposed"])
      .describe(
        "`live`: kept, and recalled where its scope allows. `proposed`: waiting for a person to approve it (an " +
          "owner for a workspace fact, someone in the channel for a channel fact); never recalled until then.",
      ),
    valid_until: z.iso
      .date()
      .nullable()
      .describe('The last day the fact holds ("YYYY-MM-DD", UTC); from the next day it is no longer recalled. Null: no end.'),
    created_at: z.iso.datetime().describe("ISO 8601, UTC."),
    updated_at: z.iso.datetime().describe("ISO 8601, UTC."),
  })
  .describe("A fact as agents receive it.");
/** The wire shape, as lib/memory/wire.ts writes it: the type follows the schema, so the two cannot drift. */
export type Memory = z.infer<typeof memory>;

export const place = z
  .object({
    channel_id: z.string(),
    kind: z.enum(["public", "private", "dm"]),
    people: z.array(z.string()).describe("The channel's people for a DM or private channel; the asker for a public one."),
  })
  .describe("Where the recall happens, as Mnemo derived it.");

export const RANKINGS = ["question", "question (words only)", "recency"] as const;
export type Ranking = (typeof RANKINGS)[number];

export const why = z
  .object({
    pinned: z.boolean().describe("People pinned it: pinned facts always come first."),
    rank: z.int().min(1).describe("Its place in this answer, from 1."),
    score: z
      .number()
      .nullable()
      .describe("How well it answers the question (higher is better; comparable within one answer only); null when it matched nothing or there was no question."),
    matched: z
      .array(z.string())
      .describe('The words of the question it matched, and "meaning" when the embeddings provider found it close.'),
  })
  .describe("Why this fact is in the answer, and where.");

export const recalledMemory = memory.extend({ why });
export type RecalledMemory = z.infer<typeof recalledMemory>;

export const recallOutput = z.object({
  place,
  facts: z
    .array(recalledMemory)
    .describe("At most `limit` (40): pinned first, then those that answer `q` best, then the most recently updated."),
  section: z
    .string()
    .nullable()
    .describe("The facts as a ready prompt section (\"## What you remember\"), or null when there are none."),
  ranking: z
    .enum(RANKINGS)
    .describe(
      "How the facts were ordered: by the question (words and meaning), by the question's words only (no " +
        "embeddings provider, or it did not answer in time), or by recency (no question).",
    ),
  considered: z.int().min(0).describe("How many facts may be recalled here: the ones ranking chose from."),
  omitted: z.int().min(0).describe("How many of those were left out by `limit` or `budget`."),
  tokens: z.int().min(0).describe("The size of `section` in tokens (o200k_base); 0 when it is null."),
});
export type RecallOutput = z.infer<typeof recallOutput>;

/** A kept fact that reads almost like the new one (lib/memory/look-alikes.ts). */
export const similarMemory = z
  .object({
    id: z.string(),
    body: z.string(),
    score: z.number().min(0).max(1).describe("How alike the two read, 0–1 (words: stemmed overlap and trigrams)."),
  })
  .describe("A fact you keep in the same scope that reads almost like the new one.");

export const rememberOutput = z.object({
  memory,
  narrowed: z.boolean().describe("True when you asked for a scope and the conversation only allowed a narrower one."),
  deduplicated: z
    .boolean()
    .describe("True when the same fact was already kept in this scope: it was refreshed, not added."),
  proposed: z
    .boolean()
    .describe(
      "True when the fact waits for a person (answered with 202): your setting for this scope says so, or the " +
        "text reads as an instruction to an agent. It is not recalled until a person approves it.",
    ),
  proposal_reason: z
    .enum(["setting", "instruction"])
    .nullable()
    .describe(
      "Why it waits: `setting` (this agent's facts of this scope wait for a person) or `instruction` (the text " +
        "reads as an instruction to an agent rather than a fact). Null when it is live.",
    ),
  similar: z
    .array(similarMemory)
    .max(3)
    .describe(
      "Facts you may recall here, in the same scope, that read almost like the new one (an edit, a changed day or " +
        "amount), best first, at most 3; empty when none (and always for a refreshed fact). Both are kept: if the new " +
        "fact makes one of them untrue, remember it again with `replaces` set to that one's id, which retires it.",
    ),
  replaced: z
    .string()
    .optional()
    .describe(
      "Present when you sent `replaces`: the id of the fact this one replaced, now retired (never recalled again; " +
        "its history lives on in the new fact's). When the new fact waits as a proposal, the old one stays until a " +
        "person approves it. Absent when the new text was the old fact's own: that only refreshed it.",
    ),
});
export type RememberOutput = z.infer<typeof rememberOutput>;

export const forgetOutput = z.object({ forgotten: z.literal(true), id: z.string() });

/**
 * Every error code of the API with the HTTP status it always comes with, so a
 * caller names the code alone and a code can never travel with another status.
 */
export const ERROR_STATUS = {
  malformed_request: 400,
  unauthorized: 401,
  forbidden: 403,
  cannot_read: 403,
  not_found: 404,
  channel_not_found: 404,
  asker_not_member: 404,
  method_not_allowed: 405,
  memory_full: 409,
  too_large: 413,
  unsupported_media_type: 415,
  invalid_request: 422,
  invalid_fact: 422,
  looks_like_secret: 422,
  rate_limited: 429,
  internal_error: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const errorBody = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string().describe("What went wrong and what to do about it."),
    }),
  })
  .describe("Every error has this shape.");
