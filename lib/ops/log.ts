/**
 * Structured logs: one JSON object per line, on stdout (errors on stderr). Callers
 * pass only what is safe to keep: ids, routes, statuses, durations — never fact
 * text, passwords, keys or secrets. LOG_LEVEL sets the threshold.
 */
import { randomUUID } from "node:crypto";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = Exclude<keyof typeof LEVELS, "silent">;

function threshold(): number {
  const wanted = process.env.LOG_LEVEL as keyof typeof LEVELS | undefined;
  return LEVELS[wanted && wanted in LEVELS ? wanted : "info"];
}

export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** Whether a line at `level` would be written: lets a hot path skip building fields nobody reads. */
export function logs(level: LogLevel): boolean {
  return LEVELS[level] >= threshold();
}

export function log(level: LogLevel, event: string, fields: LogFields = {}): void {
  if (!logs(level)) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  if (level === "error") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

/** The caller's request id when it is a sensible one (so traces join up), else a new one. */
export function requestIdFrom(headers: Headers): string {
  const given = headers.get("x-request-id");
  return given && /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : randomUUID();
}

/** An error's name and first line, for a log field: enough to search for, nothing the user sent. */
export function errorSummary(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split("\n")[0]}`.slice(0, 300);
  return String(error).slice(0, 300);
}
