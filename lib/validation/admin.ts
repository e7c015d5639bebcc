/**
 * The shapes owner settings accept: every server action's input, parsed on the
 * server before anything is looked up. Forms send strings, so numbers are coerced
 * and an empty optional field means "not given".
 */
import { z } from "zod";
import { CHANNEL_KINDS, ROLES, WRITE_POLICIES } from "@/db/schema";
import { MAX_KEY_NAME } from "@/lib/admin/agent-keys";
import { accountEmail, newPassword, personName, workspaceName } from "./accounts";

const id = z.string().trim().min(1).max(200);

/** An optional text field: blank is the same as absent. */
const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .optional()
    .transform((value) => value || undefined);

/** Every owner action names its workspace; the builder checks the caller owns it. */
export const workspaceTarget = z.object({ workspace: id });

// --- People ---

/** The same email rule as sign-up's, so an owner can add anyone who could sign up. */
export const email = accountEmail;

const role = z.enum(ROLES, { error: "Choose owner or member." });

export const addPersonInput = workspaceTarget.extend({
  email,
  name: optionalText(80, "A name is at most 80 characters."),
  role: role.default("member"),
});

export const personTarget = workspaceTarget.extend({ userId: id });

/** A waiting invitation of the workspace, by its id (renew its link, or cancel it). */
export const inviteTarget = workspaceTarget.extend({ inviteId: id });

export const changeRoleInput = personTarget.extend({ role });

/** Remove, and optionally "Also erase what agents keep just for them" (a checkbox: "on" when ticked). */
export const removePersonInput = personTarget.extend({
  eraseFacts: z
    .enum(["on", "true"])
    .optional()
    .transform((value) => value !== undefined),
});

// --- Channels ---

/** Channel names as chat products write them: lower-case, no spaces; a leading # is dropped. */
export const channelName = z
  .string({ error: "Name the channel." })
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^#/, ""))
  .pipe(
    z
      .string()
      .min(1, "Name the channel.")
      .max(80, "A channel name is at most 80 characters.")
      .regex(/^[a-z0-9][a-z0-9_-]*$/, "Use lower-case letters, digits, dashes and underscores, no spaces."),
  );

const channelKind = z.enum(CHANNEL_KINDS, { error: "Choose public, private or direct message." });

export const createChannelInput = workspaceTarget.extend({ name: channelName, kind: channelKind });

export const channelTarget = workspaceTarget.extend({ channelId: id });

export const renameChannelInput = channelTarget.extend({ name: channelName });

export const setChannelKindInput = channelTarget.extend({ kind: channelKind });

export const channelMemberInput = channelTarget.extend({
  userId: z.string({ error: "Choose a person." }).trim().min(1, "Choose a person.").max(200),
});

/** The number of facts the owner was told the person will see; absent until they confirm. */
export const addChannelMemberInput = channelMemberInput.extend({
  confirmedFacts: z.coerce.number({ error: "Confirm again." }).int("Confirm again.").min(0, "Confirm again.").optional(),
});

// --- Agents and keys ---

/** How agents are mentioned (`@scout`): lower-case, unique in the workspace. */
export const agentHandle = z
  .string({ error: "Give the agent a handle." })
  .trim()
  .toLowerCase()
  .transform((value) => value.replace(/^@/, ""))
  .pipe(
    z
      .string()
      .min(1, "Give the agent a handle.")
      .max(32, "A handle is at most 32 characters.")
      .regex(/^[a-z0-9][a-z0-9_-]*$/, "Use lower-case letters, digits, dashes and underscores, no spaces."),
  );

export const agentName = z
  .string({ error: "Give the agent a name." })
  .trim()
  .min(1, "Give the agent a name.")
  .max(80, "A name is at most 80 characters.");

export const createAgentInput = workspaceTarget.extend({ handle: agentHandle, name: agentName });

export const agentTarget = workspaceTarget.extend({ agentId: id });

export const renameAgentInput = agentTarget.extend({ name: agentName });

/** The confirmation names a number of facts; the delete goes ahead only if it is still that number. */
export const deleteAgentInput = agentTarget.extend({ expectedFacts: z.coerce.number().int().min(0) });

/** How far ahead an expiry may be set: further than this is as good as never. */
export const MAX_KEY_DAYS = 5 * 365;

export const createKeyInput = agentTarget.extend({
  name: z
    .string({ error: "Name the key." })
    .trim()
    .min(1, "Name the key, for example after where it is used.")
    .max(MAX_KEY_NAME, `A key name is at most ${MAX_KEY_NAME} characters.`),
  /** The day the key stops working (from 00:00 UTC), from a date field; blank for never. */
  expiresOn: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .refine((value) => value === undefined || (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))), {
      error: "Give the expiry as a date, such as 2027-01-31, or leave it blank.",
    })
    .refine((value) => value === undefined || Date.parse(value) > Date.now(), {
      error: "Choose a day after today, or leave it blank for a key that doesn't expire.",
    })
    .refine((value) => value === undefined || Date.parse(value) < Date.now() + MAX_KEY_DAYS * 86_400_000, {
      error: `Choose a day within ${MAX_KEY_DAYS / 365} years, or leave it blank.`,
    })
    .transform((value) => (value ? new Date(value).toISOString() : undefined)),
});

export const revokeKeyInput = workspaceTarget.extend({ keyId: id });

/** Each write policy on its own, so a refusal can name the radio group it belongs to. */
export const writePolicyFields = {
  workspaceFacts: z.enum(WRITE_POLICIES, { error: "Choose whether workspace facts wait for an owner or are kept at once." }),
  channelFacts: z.enum(WRITE_POLICIES, {
    error: "Choose whether channel facts are kept at once or wait for someone in the channel.",
  }),
};

export const writePoliciesInput = agentTarget.extend(writePolicyFields);

// --- Workspaces and invites ---

export const createWorkspaceInput = z.object({ name: workspaceName });

/** What an invite link carries: 32 random bytes, base64url. */
export const inviteToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** Someone new accepting an invitation: the account's name and password. */
export const acceptInviteInput = z
  .object({
    token: inviteToken,
    name: personName,
    password: newPassword,
    confirm: z.string({ error: "Type the password again." }),
  })
  .refine((input) => input.password === input.confirm, {
    message: "The two passwords don't match. Type the same password twice.",
    path: ["confirm"],
  });

/** A signed-in person answering an invitation to their own email. */
export const answerInviteInput = z.object({ token: inviteToken, answer: z.enum(["join", "decline"]) });

/** The audit page's URL: where the list resumes. Anything unrecognised is dropped. */
export const auditPageParams = z.object({
  before: z.coerce.number().int().positive().optional().catch(undefined),
});
