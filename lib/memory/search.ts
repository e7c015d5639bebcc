/**
 * Turning what a person types into an FTS5 query. Every word becomes a quoted
 * phrase (so FTS5 syntax — AND, NEAR, column filters, stray quotes — is never
 * interpreted), words must all match, and the last one matches as a prefix so
 * results appear while typing.
 */
const MAX_TERMS = 12;

export function ftsQuery(text: string): string | null {
  const words = text
    .normalize("NFKC")
    .split(/[\s\p{P}\p{S}]+/u)
    .map((word) => word.replace(/[\u0000-\u001f\u007f]/g, ""))
    .filter(Boolean)
    .slice(0, MAX_TERMS);
  if (!words.length) return null;
  return words.map((word, i) => `"${word.replaceAll('"', '""')}"${i === words.length - 1 ? "*" : ""}`).join(" ");
}
