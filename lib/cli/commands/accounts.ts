/** create-workspace and reset-password: what an operator does for people without a browser. */
import { createWorkspaceWithOwner, personByEmail, resetPassword } from "@/lib/admin/accounts";
import { OPERATOR } from "@/lib/admin/audit";
import { hashPassword } from "@/lib/auth/password";
import { accountEmail, personName, workspaceName } from "@/lib/validation/accounts";
import { CliError, flagValue, type Command } from "../command";
import { passwordFrom, showPassword } from "../passwords";

const PASSWORD_STDIN = {
  type: "boolean",
  description: "Read the new password from stdin instead of generating one.",
} as const;

export const createWorkspaceCommand: Command = {
  name: "create-workspace",
  summary:
    "Creates a workspace and makes a person its owner. A new email gets a new account, with a password " +
    "from stdin or a generated one printed once; an existing account keeps its password.",
  flags: {
    name: { type: "string", value: "name", description: "The workspace's name, such as \"Acme\".", required: true },
    "owner-email": { type: "string", value: "email", description: "The owner's email address.", required: true },
    "owner-name": { type: "string", value: "name", description: "The owner's name, for a new account.", required: true },
    "password-stdin": PASSWORD_STDIN,
  },
  notes: [
    "Example:",
    '  printf %s "$PASSWORD" | npm run mnemo -- create-workspace --name Acme \\',
    '    --owner-email olivia@acme.example --owner-name "Olivia Owen" --password-stdin',
  ],
  async run({ io, db: open }, values) {
    const name = flagValue(workspaceName, "name", values.name);
    const email = flagValue(accountEmail, "owner-email", values["owner-email"]);
    const ownerName = flagValue(personName, "owner-name", values["owner-name"]);
    const db = await open();

    const existing = await personByEmail(db, email);
    if (existing && values["password-stdin"]) {
      throw new CliError(`${email} already has an account; its password stays. Use reset-password to change it.`);
    }
    const password = existing ? null : await passwordFrom(io, values["password-stdin"] === true);
    const result = await createWorkspaceWithOwner(db, OPERATOR, {
      workspaceName: name,
      email,
      ownerName,
      passwordHash: password ? await hashPassword(password.password) : null,
    });
    if (result.status === "person_exists") {
      throw new CliError(`${email} got an account while this ran; run the command again to use it.`);
    }
    io.out(`Created the workspace "${name}" (id: ${result.workspaceId}).`);
    io.out(
      result.newPerson
        ? `Created an account for ${result.owner.name} <${email}>, owner of ${result.workspaceId}.`
        : `${result.owner.name} <${email}> already had an account; they are now owner of ${result.workspaceId}.`,
    );
    if (password) showPassword(io, email, password);
    if (!result.hasPassword) {
      io.out(`They have no password yet (an open invite, or single sign-on only): reset-password --email ${email} sets one.`);
    }
  },
};

export const resetPasswordCommand: Command = {
  name: "reset-password",
  summary:
    "Sets a new password for a person: from stdin, or generated and printed once. Their failed sign-ins " +
    "are cleared, and the owners of their workspaces see the reset in the audit list.",
  flags: {
    email: { type: "string", value: "email", description: "The person's email address.", required: true },
    "password-stdin": PASSWORD_STDIN,
  },
  async run({ io, db: open }, values) {
    const email = flagValue(accountEmail, "email", values.email);
    const db = await open();
    if (!(await personByEmail(db, email))) throw new CliError(`There is no account with the email ${email}.`);
    const password = await passwordFrom(io, values["password-stdin"] === true);
    const person = await resetPassword(db, OPERATOR, email, await hashPassword(password.password));
    if (!person) throw new CliError(`There is no account with the email ${email}.`);
    io.out(`Set a new password for ${person.name} <${email}>.`);
    showPassword(io, email, password);
  },
};
