"use client";

/**
 * A group's paging link (#17): after the next page arrives, focus is on the
 * group's heading, which says "26–50 of 92", not left 8,000 px down on a link
 * that is gone.
 */
import Link from "next/link";
import { focusSoon } from "@/components/ui/focus-soon";

export function PageLink({ href, headingId, children }: { href: string; headingId: string; children: React.ReactNode }) {
  return (
    <Link
      href={href}
      scroll={false}
      onClick={() => {
        // Once the new page's heading shows its new range (the old one is replaced in place).
        const before = document.getElementById(headingId)?.textContent;
        focusSoon(() => {
          const heading = document.getElementById(headingId);
          return heading && heading.textContent !== before ? heading : null;
        });
      }}
      className="text-brand-700 underline-offset-4 hover:underline"
    >
      {children}
    </Link>
  );
}
