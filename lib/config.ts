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
  MNEMO_SIGNUP: {
    schema: z.enum(["closed", "open"]).default("closed"),
    accepts:
      "closed (only the first account of an empty database, with MNEMO_DEMO=0, can sign up) or open (anyone can create an account on the sign-in page)",
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
  MNEMO_TRUSTED_PROXIES: {
    schema: z.coerce.number().int().min(0).max(10).default(0),
    accepts:
      "how many proxies in front of Mnemo add the client's address to X-Forwarded-For, a whole number from 0 (none: the header is ignored) to 10",
  },
  MNEMO_RECALL_CACHE_MB: {
    schema: z.coerce.number().int().min(0).max(4096).default(64),
    accepts: "megabytes of recall answers each server process keeps, a whole number from 0 (keep none) to 4096",
  },
  MNEMO_QUESTION_CACHE_MB: {
    // At most 4096: what the caches count is their own estimate, and Node's heap stops at a few GB unless raised.
    schema: z.coerce.number().int().min(16).max(4096).default(464),
    accepts:
      "megabytes of what ranking agents' questions reads (postings, vocabularies, branches read whole, fact rows) each server process keeps, a whole number from 16 to 4096",
  },
  MNEMO_AGENT_THREAD: {
    schema: z.enum(["on", "off"]).default("on"),
    accepts:
      "on (each server process ranks agents' questions and keeps their facts on a thread of its own, beside the one that serves requests) or off (on the request's own thread)",
  },
  MNEMO_USAGE_FLUSH_MS: {
    schema: z.coerce.number().int().min(10).max(600_000).default(5000),
    accepts: "milliseconds between writes of recall counts (lib/memory/usage.ts), a whole number from 10 to 600000",
  },
  MNEMO_EMBEDDINGS_URL: {
    // Not followed by redirects, and sent the fact text: http(s) only.
    schema: z.url({ protocol: /^https?$/ }).optional(),
    accepts:
      "an OpenAI-compatible embeddings API's base URL, such as http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1, or its full /embeddings address",
  },
  MNEMO_EMBEDDINGS_MODEL: {
    schema: z.string().trim().min(1).max(200).optional(),
    accepts: "the embeddings model's name, such as nomic-embed-text or text-embedding-3-small",
  },
  MNEMO_EMBEDDINGS_KEY: { schema: z.string().min(1).optional(), accepts: "a non-empty API key, sent as a Bearer token" },
  MNEMO_EMBEDDINGS_TIMEOUT_MS: {
    schema: z.coerce.number().int().min(50).max(30_000).default(1500),
    accepts: "how long recall waits for the embeddings provider to embed a question, in milliseconds from 50 to 30000",
  },
  AUTH_SECRET: {
    schema: z.string().min(32).optional(),
    accepts: "at least 32 random characters (make one with: openssl rand -base64 33)",
  },
  AUTH_URL: {
    schema: z.url({ protocol: /^https?$/ }).optional(),
    accepts: "the site's public address, such as https://mnemo.example.com",
  },
  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: {
    schema: z
      .string()
      .regex(/^[A-Za-z0-9+/]+={0,2}$/)
      .refine((key) => [16, 24, 32].includes(Buffer.from(key, "base64").length))
      .optional(),
    accepts: "an AES key in base64, 16, 24 or 32 bytes (make one with: openssl rand -base64 32)",
  },
  MNEMO_DRAIN_SECONDS: {
    schema: z.coerce.number().min(0).max(300).default(5),
    accepts: "seconds to keep serving after SIGTERM while /api/ready says 503, from 0 to 300",
  },
  LOG_LEVEL: {
    schema: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    accepts: "debug, info, warn, error or silent",
  },
  NODE_ENV: {
    schema: z.enum(["development", "production", "test"]).optional(),
    accepts: "development, production or test",
  },
} as const;

/** Settings that were renamed: an old name still set would otherwise be ignored without a word. */
const RENAMED: Record<string, keyof typeof rules> = {
  MNEMO_RECALL_THREAD: "MNEMO_AGENT_THREAD",
};

type Rules = typeof rules;
export type Config = { [K in keyof Rules]: z.output<Rules[K]["schema"]> };

/** Reads and validates the settings; throws a ConfigError naming the first bad variable. */
export function readConfig(env: Env = process.env): Config {
  for (const [old, now] of Object.entries(RENAMED)) {
    if (env[old] !== undefined && env[old] !== "") throw new ConfigError(old, `renamed; set ${now} instead (${rules[now].accepts})`, env[old]);
  }
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(rules)) {
    const raw = env[name] === "" ? undefined : env[name];
    const parsed = rule.schema.safeParse(raw);
    if (!parsed.success) throw new ConfigError(name, rule.accepts, raw);
    out[name] = parsed.data;
  }
  const config = out as Config;
  // One without the other would silently leave recall on words alone.
  if (Boolean(config.MNEMO_EMBEDDINGS_URL) !== Boolean(config.MNEMO_EMBEDDINGS_MODEL)) {
    const [missing, given] = config.MNEMO_EMBEDDINGS_URL
      ? ["MNEMO_EMBEDDINGS_MODEL", "MNEMO_EMBEDDINGS_URL"]
      : ["MNEMO_EMBEDDINGS_URL", "MNEMO_EMBEDDINGS_MODEL"];
    throw new ConfigError(missing, `required when ${given} is set (the two name the embeddings provider together)`);
  }
  return config;
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
  const config = readConfig(env);
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  // A real deployment must choose its secret: a generated file would differ per machine.
  if (config.NODE_ENV === "production" && !config.MNEMO_DEMO) {
    throw new ConfigError(
      "AUTH_SECRET",
      "required when NODE_ENV=production and MNEMO_DEMO=0: at least 32 random characters, the same on every instance (make one with: openssl rand -base64 33)",
    );
  }
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

/** What an operator should know before running several instances; printed at start. */
export function scaleOutAdvice(env: Env = process.env): string | null {
  const missing = ["AUTH_SECRET", "NEXT_SERVER_ACTIONS_ENCRYPTION_KEY"].filter((name) => !env[name]);
  if (!missing.length) return null;
  return `Not set: ${missing.join(" and ")}. One instance is fine; several instances of Mnemo must all share the same values of both.`;
}
