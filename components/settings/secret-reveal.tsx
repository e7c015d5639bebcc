"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * A secret shown once — an invite link or an agent key — with a copy button and
 * the warning that it won't be shown again. It takes focus, so a keyboard or
 * screen-reader user lands on it.
 */
export function SecretReveal({ label, value, warning }: { label: string; value: string; warning: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [value]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin, a denied permission): the text is selected for copying by hand.
      input.current?.select();
    }
  }

  return (
    <div className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          ref={input}
          id={id}
          readOnly
          value={value}
          aria-describedby={`${id}-warning`}
          className="min-h-10 min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 font-mono text-sm"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button type="button" variant="secondary" onClick={copy}>
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
      <p id={`${id}-warning`} className="text-sm text-amber-900">
        {warning}
      </p>
    </div>
  );
}
