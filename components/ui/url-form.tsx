"use client";

import { useRouter } from "next/navigation";
import type { FormHTMLAttributes } from "react";
import { focusSoon } from "./focus-soon";

/**
 * A GET form whose fields become the URL. With JavaScript it navigates inside
 * the app and leaves empty fields out of the URL; without, it is a plain GET form.
 * Either way the URL is the state: shareable, and the back button restores it.
 * `focusAfter` (a selector): where focus goes once the new URL's page is shown —
 * the results, rather than <body> when the refreshed form replaces its button.
 */
export function UrlForm({
  action,
  focusAfter,
  ...props
}: Omit<FormHTMLAttributes<HTMLFormElement>, "action" | "method"> & { action: string; focusAfter?: string }) {
  const router = useRouter();
  return (
    <form
      {...props}
      method="get"
      action={action}
      onSubmit={(event) => {
        event.preventDefault();
        const query = new URLSearchParams();
        for (const [name, value] of new FormData(event.currentTarget)) {
          if (typeof value === "string" && value.trim() !== "") query.set(name, value);
        }
        const text = query.toString();
        const href = text ? `${action}?${text}` : action;
        router.push(href);
        if (focusAfter) {
          focusSoon(() =>
            `${window.location.pathname}${window.location.search}` === href ? document.querySelector<HTMLElement>(focusAfter) : null,
          );
        }
      }}
    />
  );
}
