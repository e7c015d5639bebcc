/**
 * A fact's text: how it is cleaned before it is kept, and the key two facts are
 * compared by to find a duplicate. The characters a reader cannot see are
 * unicode.ts's concern, and text that looks like a credential is secrets.ts's.
 */
import { MAX_FACT } from "./rules";
import { looksBlank, stripInvisible } from "./unicode";

// Characters that must never survive into a fact: controls other than whitespace
// (NUL and friends) would break logs and prompts, and NEL is a line break that `\s` misses.
const CONTROL_CHARS = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
const WHITESPACE_RUN = /[\s\u0085]+/g;
/**
 * What collapsing would change: whitespace other than a plain space, two spaces, or a
 * space at either end. Stored text (cleaned so) has none, and every recall line
 * collapses a fact's text and labels again (prompt-section.ts): a test that finds
 * nothing costs a fifth of a replace that puts each space back where it was.
 */
const NOT_ONE_LINE = /[^\S ]|\u0085| {2}|^ | $/;

/** Text as one line: every run of whitespace, line breaks included, one space; trimmed. */
export function collapseWhitespace(text: string): string {
  return NOT_ONE_LINE.test(text) ? text.replace(WHITESPACE_RUN, " ").trim() : text;
}

/**
 * A fact as written, cleaned: one paragraph of characters a reader can see
 * (unicode.ts), trimmed, at most MAX_FACT characters (cut to MAX_FACT - 1 and
 * ended with "…"). Null for non-strings and for text that shows nothing.
 */
export function cleanFact(body: unknown): string | null {
  if (typeof body !== "string") return null;
  // NFC, not NFKC: a fact keeps the characters its writer chose; only the secret filter folds them.
  const text = collapseWhitespace(stripInvisible(body.replace(CONTROL_CHARS, ""))).normalize("NFC");
  if (looksBlank(text)) return null;
  if (text.length <= MAX_FACT) return text;
  let cut = MAX_FACT - 1;
  // Never split an emoji or other surrogate pair in half.
  if (/[\uD800-\uDBFF]/.test(text[cut - 1])) cut -= 1;
  // Cleaned again: the cut may leave an emoji joiner with nothing to join.
  return `${stripInvisible(text.slice(0, cut)).trimEnd()}…`;
}

/**
 * The text two facts are compared by to find duplicates, so that the same fact
 * said again refreshes the one kept instead of adding a second: case-folded,
 * whitespace collapsed, trailing punctuation dropped.
 */
export function dedupeKey(body: string): string {
  // Upper then lower: a full case fold for the letters that need it ("ß" → "ss", final "ς" → "σ").
  return collapseWhitespace(body.normalize("NFKC").toUpperCase().toLowerCase()).replace(/[\p{P}\s]+$/u, "");
}
