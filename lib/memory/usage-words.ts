/**
 * A fact's recall count as a person reads it on the Memory page, on a line of
 * its own: "Recalled 14 times · last 2 days ago", or "Never recalled". Pure, so the server and the
 * browser render the same words for the same `now`.
 */

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

// "always": after "last", "1 day ago" reads right where "yesterday" would not.
const ago = new Intl.RelativeTimeFormat("en", { numeric: "always" });

/** How long ago, in words; a time in the future (another server's clock) is "moments ago" too. */
function agoInWords(iso: string, now: number): string {
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (seconds >= size) return ago.format(-Math.trunc(seconds / size), unit);
  }
  return "moments ago";
}

export function recallUsageInWords(count: number, lastRecalledAt: string | null, now: number): string {
  if (count <= 0 || !lastRecalledAt) return "Never recalled";
  const times = count === 1 ? "once" : count === 2 ? "twice" : `${count.toLocaleString("en-US")} times`;
  return `Recalled ${times} · last ${agoInWords(lastRecalledAt, now)}`;
}
