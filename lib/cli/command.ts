/**
 * What every operator command shares: its shape (flags, help, run), the two
 * kinds of refusal — a usage error (exit 2) and a failure (exit 1), each one
 * line — and parsing flags with node:util's parseArgs into clear messages.
 */
import { parseArgs } from "node:util";
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { Env } from "@/lib/config";

/** The command line was wrong: the operator should read the help. Exit code 2. */
export class UsageError extends Error {
  name = "UsageError";
}

/** The command was right but could not be done (no such workspace, a failed check). Exit code 1. */
export class CliError extends Error {
  name = "CliError";
}

export type Flag = { type: "string" | "boolean"; value?: string; description: string; required?: boolean };

/** Where a command writes and reads: the real process, or a test's stand-ins. */
export type Io = {
  out: (line: string) => void;
  stdin: () => Promise<string>;
};

export type CommandContext = {
  io: Io;
  /** The database, migrated first (for every command that changes data). */
  db: () => Promise<Db>;
  databaseUrl: string;
  authToken?: string;
  /** The environment the command runs in (settings beyond the database's, such as the embeddings provider). */
  env: Env;
};

export type Command = {
  name: string;
  summary: string;
  flags: Record<string, Flag>;
  /** Extra help text after the flags: what it prints, an example. */
  notes?: string[];
  /** A flag that may also be given as the one bare argument (`backup <file>`). */
  positional?: string;
  run: (context: CommandContext, values: Record<string, string | boolean | undefined>) => Promise<void>;
};

export function commandHelp(command: Command): string {
  const width = Math.max(...Object.entries(command.flags).map(([name, flag]) => flagLabel(name, flag).length), 6);
  const usage = Object.entries(command.flags)
    .filter(([, flag]) => flag.required)
    .map(([name, flag]) => flagLabel(name, flag))
    .join(" ");
  const lines = [
    `Usage: npm run mnemo -- ${command.name}${usage ? ` ${usage}` : ""}${optionalCount(command) ? " [options]" : ""}`,
    "",
    command.summary,
    "",
    "Options:",
    ...Object.entries(command.flags).map(
      ([name, flag]) => `  ${flagLabel(name, flag).padEnd(width)}  ${flag.description}${flag.required ? " Required." : ""}`,
    ),
    `  ${"--help".padEnd(width)}  Show this help.`,
  ];
  if (command.notes?.length) lines.push("", ...command.notes);
  return lines.join("\n");
}

function optionalCount(command: Command): number {
  return Object.values(command.flags).filter((flag) => !flag.required).length;
}

function flagLabel(name: string, flag: Flag): string {
  return flag.type === "string" ? `--${name} <${flag.value ?? "value"}>` : `--${name}`;
}

/** A parseArgs failure, said in one line without Node's advice about positionals. */
function usageMessage(error: unknown): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = /'(--?[^' ]+)/.exec(message)?.[1];
  const argument = /argument '([^']*)'/i.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `there is no option ${option ?? "like that"}.`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && /does not take an argument/.test(message)) {
    return `${option} takes no value.`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return `${option ?? "an option"} needs a value.`;
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
    return `unexpected "${argument ?? message}": every value follows its --flag.`;
  }
  return message.split("\n")[0];
}

/** Parses a command's flags strictly; every required string flag must be present and non-empty. */
export function parseFlags(command: Command, args: string[]): Record<string, string | boolean | undefined> {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(Object.entries(command.flags).map(([name, flag]) => [name, { type: flag.type }]));
    const parsed = parseArgs({ args, options, strict: true, allowPositionals: Boolean(command.positional) });
    values = parsed.values;
    if (command.positional && parsed.positionals.length) {
      if (parsed.positionals.length > 1 || values[command.positional] !== undefined) {
        throw new UsageError(`give the ${command.flags[command.positional]?.value ?? "value"} once.`);
      }
      values[command.positional] = parsed.positionals[0];
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(usageMessage(error));
  }
  for (const [name, flag] of Object.entries(command.flags)) {
    const value = values[name];
    if (flag.required && (value === undefined || (typeof value === "string" && !value.trim()))) {
      throw new UsageError(`missing --${name}${flag.type === "string" ? ` <${flag.value ?? "value"}>` : ""}.`);
    }
  }
  return values;
}

/** A flag's value checked with a zod schema; its first message becomes the usage error. */
export function flagValue<T>(schema: z.ZodType<T>, name: string, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(`--${name}: ${parsed.error.issues[0]?.message ?? "not a valid value."}`);
}
