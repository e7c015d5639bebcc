import { randomBytes } from "node:crypto";

// Crockford base32: 32 symbols, so `byte & 31` is unbiased, and no look-alike letters.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** `length` random base32 characters, 5 bits each. */
export function randomText(length: number): string {
  let out = "";
  for (const byte of randomBytes(length)) out += ALPHABET[byte & 31];
  return out;
}

/** A new random id such as `fact_k3v9x0q2m7a1c8de`: a readable prefix and 80 bits of randomness. */
export function newId(prefix: string): string {
  return `${prefix}_${randomText(16)}`;
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
