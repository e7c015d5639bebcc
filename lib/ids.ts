import { randomBytes } from "node:crypto";

// Crockford base32: 32 symbols, so `byte & 31` is unbiased, and no look-alike letters.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** A new random id such as `fact_k3v9x0q2m7a1c8de`: a readable prefix and 80 bits of randomness. */
export function newId(prefix: string): string {
  const bytes = randomBytes(16);
  let out = "";
  for (const byte of bytes) out += ALPHABET[byte & 31];
  return `${prefix}_${out}`;
}

/** The current time as Mnemo stores it: ISO 8601 in UTC, which sorts as text. */
export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * The time a server render starts, in milliseconds: relative times on the page
 * are measured from it, so the browser's hydration renders the same words.
 */
export function requestTime(): number {
  return Date.now();
}
