/**
 * How long ago a time was, in words ("3 days ago"), relative to a `now` the server
 * chose, so the server and the browser render the same words. One table of units
 * for every page that says it (history, audit, keys, recall counts).
 */
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const FORMATS = {
  // "yesterday", "last week": for a time on its own.
  auto: new Intl.RelativeTimeFormat("en", { numeric: "auto" }),
  // "1 day ago": after a word such as "last", where "yesterday" would not read.
  always: new Intl.RelativeTimeFormat("en", { numeric: "always" }),
};

/** The time in words, or null when it is under a minute away (the caller says "just now" its own way). */
export function timeAgo(iso: string, now: number, numeric: keyof typeof FORMATS = "auto"): string | null {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return FORMATS[numeric].format(Math.trunc(seconds / size), unit);
  }
  return null;
}
