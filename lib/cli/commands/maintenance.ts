/** purge and check: keeping the database tidy and knowing it is healthy. */
import { existsSync } from "node:fs";
import { checkDatabase } from "@/db/check";
import { connect, filePathOf } from "@/db/client";
import { FORGET_GRACE_DAYS } from "@/lib/memory/rules";
import { purgeExpired } from "@/lib/memory/writes";
import { CliError, type Command } from "../command";

export const purgeCommand: Command = {
  name: "purge",
  summary:
    `Deletes the facts forgotten more than ${FORGET_GRACE_DAYS} days ago, with their history. ` +
    "The app also does this every hour; run it to be sure before a backup.",
  flags: {},
  async run({ io, db: open }) {
    const purged = await purgeExpired(await open());
    io.out(`Purged ${purged} ${purged === 1 ? "fact" : "facts"} forgotten more than ${FORGET_GRACE_DAYS} days ago.`);
  },
};

export const checkCommand: Command = {
  name: "check",
  summary:
    "Checks the database without changing it. Every migration in drizzle/ must be applied, SQLite's " +
    "integrity check must pass, and every foreign key must point at a row; exits 1 when anything is wrong.",
  flags: {},
  notes: ["Unlike the other commands, check never migrates: it reports what is missing instead."],
  async run({ io, databaseUrl, authToken }) {
    const file = filePathOf(databaseUrl);
    if (file && !existsSync(file)) throw new CliError(`There is no database file at ${file}.`);
    // connect, not openDatabase: opening that way would switch the file to WAL, and a check changes nothing.
    const client = connect(databaseUrl, authToken).$client;
    try {
      try {
        await client.execute("SELECT count(*) FROM sqlite_master");
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
        throw new CliError(`Cannot read the database at ${file ?? databaseUrl}: ${reason}`);
      }
      const results = await checkDatabase(client);
      for (const result of results) io.out(`${result.ok ? "ok  " : "FAIL"}  ${result.name}: ${result.detail}`);
      const failed = results.filter((result) => !result.ok).length;
      if (failed) throw new CliError(`${failed} of ${results.length} checks failed for ${file ?? databaseUrl}.`);
      io.out(`The database at ${file ?? databaseUrl} is healthy.`);
    } finally {
      client.close();
    }
  },
};
