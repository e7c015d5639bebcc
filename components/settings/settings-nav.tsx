"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The settings sections; the current one is marked for assistive technology too. */
export function SettingsNav({ workspace }: { workspace: string }) {
  const pathname = usePathname();
  const base = `/w/${workspace}/settings`;
  const sections = [
    { href: base, label: "People" },
    { href: `${base}/channels`, label: "Channels" },
    { href: `${base}/agents`, label: "Agents and keys" },
    { href: `${base}/webhooks`, label: "Webhooks" },
    { href: `${base}/audit`, label: "Audit list" },
  ];
  return (
    <nav aria-label="Settings" className="-mx-1 flex flex-wrap gap-1 border-b border-slate-200 pb-2">
      {sections.map((section) => {
        const current = section.href === base ? pathname === base : pathname.startsWith(section.href);
        return (
          <Link
            key={section.href}
            href={section.href}
            aria-current={current ? "page" : undefined}
            className={`rounded-md px-3 py-2 text-sm font-medium ${
              current ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100"
            }`}
          >
            {section.label}
          </Link>
        );
      })}
    </nav>
  );
}
