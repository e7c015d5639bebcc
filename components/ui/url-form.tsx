"use client";

import { useRouter } from "next/navigation";
import type { FormHTMLAttributes } from "react";

/**
 * A GET form whose fields become the URL. With JavaScript it navigates inside
 * the app and leaves empty fields out of the URL; without, it is a plain GET form.
 * Either way the URL is the state: shareable, and the back button restores it.
 */
export function UrlForm({ action, ...props }: Omit<FormHTMLAttributes<HTMLFormElement>, "action" | "method"> & { action: string }) {
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
        router.push(text ? `${action}?${text}` : action);
      }}
    />
  );
}
