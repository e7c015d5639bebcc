/**
 * erase-person: the operator's form of "Erase what agents keep just for me"
 * (issue #16), for a request that comes by email. It prints counts, never text;
 * a real erasure also ends every session of the person, and each workspace's
 * owners see it in the audit list.
 */
import { personByEmail } from "@/lib/admin/accounts";
import { OPERATOR } from "@/lib/admin/audit";
import { erasePersonFacts } from "@/lib/privacy/erase-person-facts";
import { accountEmail } from "@/lib/validation/accounts";
import { CliError, flagValue, type Command } from "../command";
import { requireWorkspace } from "../lookups";

export const erasePersonCommand: Command = {
  name: "erase-person",
  summary:
    "Erases the facts agents keep just for one person (scope person), with their history, at once — not " +
    "through the 7-day bin — in every workspace or one, and ends every session of that person. Prints counts per agent, never text.",
  flags: {
    email: { type: "string", value: "email", description: "The person's email address.", required: true },
    workspace: { type: "string", value: "id", description: "Only this workspace (its id). Left out: every workspace." },
    "dry-run": { type: "boolean", description: "Print what would be erased and change nothing." },
  },
  notes: ["Example:", "  npm run mnemo -- erase-person --email ana@acme.example --workspace acme --dry-run"],
  async run({ io, db: open }, values) {
    const email = flagValue(accountEmail, "email", values.email);
    const db = await open();
    const person = await personByEmail(db, email);
    if (!person) throw new CliError(`There is no account with the email ${email}.`);
    const workspace = typeof values.workspace === "string" ? await requireWorkspace(db, values.workspace.trim()) : null;
    const dryRun = values["dry-run"] === true;
    const result = await erasePersonFacts(db, person.id, {
      workspaceId: workspace?.id,
      dryRun,
      by: OPERATOR,
      endSessions: !dryRun,
    });
    const where = workspace ? `in ${workspace.name} (${workspace.id})` : "in every workspace";
    const facts = (n: number) => `${n} ${n === 1 ? "fact" : "facts"}`;
    io.out(
      dryRun
        ? `Dry run: would erase ${facts(result.total)} kept just for ${person.name} <${email}> ${where}.`
        : `Erased ${facts(result.total)} kept just for ${person.name} <${email}> ${where}, with their history.`,
    );
    for (const agent of result.agents) io.out(`  ${agent.workspace.id} @${agent.agent.handle}: ${facts(agent.facts)}`);
    if (!dryRun) io.out(`Ended every session of ${person.name}.`);
  },
};
