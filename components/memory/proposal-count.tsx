import Link from "next/link";

/**
 * Beside an agent wherever it is listed: how many of its proposals this person
 * may decide, as a link to its Inbox. Nothing when there are none, so the number
 * never hints at proposals the person may not decide.
 */
export function ProposalCount({ count, href }: { count: number; href: string }) {
  if (count <= 0) return null;
  const words = `${count.toLocaleString("en-US")} ${count === 1 ? "proposal" : "proposals"} waiting`;
  return (
    <Link
      href={href}
      aria-label={words}
      title={words}
      className="inline-flex min-h-6 min-w-6 items-center justify-center rounded-full bg-amber-100 px-2 text-xs font-semibold text-amber-900 ring-1 ring-amber-300 hover:bg-amber-200"
    >
      {count.toLocaleString("en-US")}
    </Link>
  );
}
