/**
 * A fact's recall count as a person reads it on the Memory page, on a line of
 * its own: "Recalled 14 times · last 2 days ago", or "Never recalled". Pure, so the server and the
 * browser render the same words for the same `now`.
 */
import { timeAgo } from "@/lib/time-ago";

export function recallUsageInWords(count: number, lastRecalledAt: string | null, now: number): string {
  if (count <= 0 || !lastRecalledAt) return "Never recalled";
  const times = count === 1 ? "once" : count === 2 ? "twice" : `${count.toLocaleString("en-US")} times`;
  // A time ahead of `now` (another server's clock) is "moments ago" too.
  const ago = new Date(lastRecalledAt).getTime() > now ? null : timeAgo(lastRecalledAt, now, "always");
  return `Recalled ${times} · last ${ago ?? "moments ago"}`;
}
