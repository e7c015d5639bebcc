/**
 * The shapes of a new account, shared by the sign-up form's action and the
 * operator's command line, so both refuse the same things with the same words.
 */
import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "./fields";

export const MAX_PASSWORD_LENGTH = 1024;

export const personName = z
  .string({ error: "Enter a name." })
  .trim()
  .min(1, "Enter a name.")
  .max(80, "A name is at most 80 characters.");

/** Emails are kept lower-case, as sign-in looks them up. */
export const accountEmail = z
  .string({ error: "Enter an email address." })
  .trim()
  .toLowerCase()
  .max(254, "That email address is too long.")
  .pipe(z.email("Enter an email address such as name@example.com."));

export const newPassword = z
  .string({ error: "Choose a password." })
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters.`)
  .max(MAX_PASSWORD_LENGTH, "That password is too long.");

export const workspaceName = z
  .string({ error: "Name the workspace." })
  .trim()
  .min(1, "Name the workspace.")
  .max(80, "A workspace name is at most 80 characters.");

const account = z.object({ name: personName, email: accountEmail, password: newPassword });

/**
 * What the sign-up form sends: the first account of an empty database comes
 * with its workspace; an account on an open sign-up is the person alone.
 */
export const signUpInput = z.discriminatedUnion(
  "kind",
  [
    account.extend({ kind: z.literal("first"), workspaceName }),
    account.extend({ kind: z.literal("account") }),
  ],
  { error: "Reload the page and try again." },
);

export type SignUpInput = z.output<typeof signUpInput>;
