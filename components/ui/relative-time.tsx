import { timeAgo } from "@/lib/time-ago";

const exact = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** "3 days ago"; relative to a `now` the server chose, so server and browser render the same words. */
export function relativeTime(iso: string, now: number): string {
  return timeAgo(iso, now) ?? "just now";
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
