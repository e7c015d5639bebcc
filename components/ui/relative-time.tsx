const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const exact = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "3 days ago"; relative to a `now` the server chose, so server and browser render the same words. */
export function relativeTime(iso: string, now: number): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return "just now";
}

/** A time in words, with the exact time on hover and for assistive technology. */
export function RelativeTime({ iso, now }: { iso: string; now: number }) {
  const full = `${exact.format(new Date(iso))} UTC`;
  return (
    <time dateTime={iso} title={full} aria-label={full}>
      {relativeTime(iso, now)}
    </time>
  );
}
