/**
 * Every setting Mnemo reads from the environment, validated in one place. A wrong
 * value stops the start with one line naming the variable and what it accepts.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** The environment, or any stand-in for it (tests pass a plain object). */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  constructor(variable: string, accepts: string, got?: string) {
    super(`${variable}${got === undefined ? "" : `=${JSON.stringify(got)}`} is not valid: ${accepts}.`);
    this.name = "ConfigError";
  }
}

const AGENT_KEY = /^mnemo_[A-Za-z0-9_-]{32,}$/;

const rules = {
  DATABASE_URL: {
    schema: z
      .string()
      .regex(/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/)\S+$/)
      .default("file:./data/mnemo.db"),
    accepts: "a libSQL URL such as file:./data/mnemo.db, libsql://host or https://host",
  },
  DATABASE_AUTH_TOKEN: { schema: z.string().min(1).optional(), accepts: "a non-empty token" },
  PORT: {
    schema: z.coerce.number().int().min(1).max(65535).default(3000),
    accepts: "a port number from 1 to 65535",
  },
  MNEMO_DEMO: {
    schema: z.enum(["0", "1"]).default("1").transform((v) => v === "1"),
    accepts: "1 (seed the demo workspace into an empty database) or 0 (never)",
  },
  MNEMO_DEMO_SCOUT_KEY: {
    schema: z.string().regex(AGENT_KEY).optional(),
    accepts: "an agent key: mnemo_ followed by at least 32 of A-Z a-z 0-9 _ -",
  },
  MNEMO_DEMO_ECHO_KEY: {
    schema: z.string().regex(AGENT_KEY).optional(),
    accepts: "an agent key: mnemo_ followed by at least 32 of A-Z a-z 0-9 _ -",
  },
  MNEMO_API_RATE_LIMIT: {
    schema: z.coerce.number().int().min(1).default(1200),
    accepts: "requests per minute per agent key, a whole number of at least 1",
  },
  AUTH_SECRET: {
    schema: z.string().min(32).optional(),
    accepts: "at least 32 random characters (make one with: openssl rand -base64 33)",
  },
} as const;

type Rules = typeof rules;
export type Config = { [K in keyof Rules]: z.output<Rules[K]["schema"]> };

/** Reads and validates the settings; throws a ConfigError naming the first bad variable. */
export function readConfig(env: Env = process.env): Config {
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(rules)) {
    const raw = env[name] === "" ? undefined : env[name];
    const parsed = rule.schema.safeParse(raw);
    if (!parsed.success) throw new ConfigError(name, rule.accepts, raw);
    out[name] = parsed.data;
  }
  return out as Config;
}

/** The folder that holds the embedded database and the generated secret. */
export function dataDir(): string {
  return path.resolve(process.cwd(), "data");
}

/**
 * AUTH_SECRET from the environment, or else one generated once and kept in
 * ./data/auth-secret (git-ignored), so `npm start` needs no .env and sessions
 * survive restarts.
 */
export function authSecret(env: Env = process.env): string {
  const fromEnv = readConfig(env).AUTH_SECRET;
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir(), "auth-secret");
  if (existsSync(file)) {
    const kept = readFileSync(file, "utf8").trim();
    if (kept.length >= 32) return kept;
  }
  mkdirSync(dataDir(), { recursive: true });
  const secret = randomBytes(33).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
