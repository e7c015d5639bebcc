/**
 * `npm run mnemo -- <command>`: what an operator does without a browser. Each
 * command lives in lib/cli/commands/. Exit codes: 0 done, 1 failed (the line
 * says why), 2 the command line was wrong (the line says what to fix).
 */
import { pathToFileURL } from "node:url";
import { openDatabase, type Db } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { readConfig, type Env } from "@/lib/config";
import { commandHelp, parseFlags, UsageError, type Command, type Io } from "./command";
import { createWorkspaceCommand, resetPasswordCommand } from "./commands/accounts";
import { createKeyCommand, listKeysCommand, revokeKeyCommand } from "./commands/keys";
import { backupCommand, restoreCommand } from "./commands/backup";
import { checkCommand, purgeCommand } from "./commands/maintenance";
import { reindexCommand } from "./commands/embeddings";
import { erasePersonCommand } from "./commands/privacy";

export const COMMANDS: Command[] = [
  createWorkspaceCommand,
  resetPasswordCommand,
  createKeyCommand,
  revokeKeyCommand,
  listKeysCommand,
  purgeCommand,
  checkCommand,
  backupCommand,
  restoreCommand,
  reindexCommand,
  erasePersonCommand,
];

function globalHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    "Mnemo's operator commands.",
    "",
    "Usage: npm run mnemo -- <command> [options]",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary.split(/(?<=\.) /)[0]}`),
    "",
    "Run `npm run mnemo -- <command> --help` for a command's options.",
    "Every command works on the database at DATABASE_URL (default file:./data/mnemo.db)",
    "and, except check, applies pending migrations first.",
    "Exit codes: 0 done, 1 failed, 2 wrong command line.",
  ].join("\n");
}

const wantsHelp = (args: string[]) => args.some((arg) => arg === "--help" || arg === "-h");

/** Runs one command line; returns the exit code. Errors are reported as one line on `err`. */
export async function runCli(args: string[], io: Io & { err: (line: string) => void }, env: Env): Promise<number> {
  const [name, ...rest] = args;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    if (!name) {
      io.err(globalHelp());
      return 2;
    }
    io.out(topic ? commandHelp(topic) : globalHelp());
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.err(`mnemo: there is no command "${name}". Run \`npm run mnemo -- --help\` to see the commands.`);
    return 2;
  }
  if (wantsHelp(rest)) {
    io.out(commandHelp(command));
    return 0;
  }

  let db: Db | undefined;
  try {
    const values = parseFlags(command, rest);
    const config = readConfig(env);
    await command.run(
      {
        io,
        databaseUrl: config.DATABASE_URL,
        authToken: config.DATABASE_AUTH_TOKEN,
        env,
        db: async () => {
          if (!db) {
            db = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
            await migrateDatabase(db);
          }
          return db;
        },
      },
      values,
    );
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`mnemo ${command.name}: ${error.message} See \`npm run mnemo -- ${command.name} --help\`.`);
      return 2;
    }
    // Known failures and everything else alike: one line, never a stack trace.
    const message = error instanceof Error ? error.message : String(error);
    io.err(`mnemo ${command.name}: ${message.split("\n")[0]}`);
    return 1;
  } finally {
    db?.$client.close();
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const code = await runCli(
    process.argv.slice(2),
    { out: (line) => console.log(line), err: (line) => console.error(line), stdin: readStdin },
    process.env,
  );
  process.exitCode = code;
}
