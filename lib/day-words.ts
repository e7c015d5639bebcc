/**
 * A calendar day ("YYYY-MM-DD", UTC) as people read it — "12 Dec 2026" — the same on
 * the server and in the browser, whatever either's time zone: a fact's "until" is a
 * UTC day, and a local zone would show the day before west of Greenwich.
 */
const DAY = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

export function dayInWords(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) ? day : DAY.format(date);
}
