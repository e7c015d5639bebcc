/**
 * Agent keys: `mnemo_` and 43 URL-safe characters (256 random bits). Only the
 * SHA-256 hash is stored and looked up; the key itself is shown once.
 */
import { createHash, randomBytes } from "node:crypto";

export const AGENT_KEY_PATTERN = /^mnemo_[A-Za-z0-9_-]{32,}$/;

export function generateAgentKey(): string {
  return `mnemo_${randomBytes(32).toString("base64url")}`;
}

export function hashAgentKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Enough of a key to recognise it in a list, never enough to use it. */
export function agentKeyPrefix(key: string): string {
  return key.slice(0, 10);
}
