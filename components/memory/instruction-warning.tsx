"use client";

import type { ButtonHTMLAttributes } from "react";
import { Button } from "@/components/ui/button";

/**
 * The warning the Add and Edit forms show when the server answered that the text
 * reads like an instruction to the agent: the words, and "Keep it anyway". The
 * live region is always on the page, so a screen reader announces the words
 * politely the moment they appear; the text field points at it (aria-describedby).
 */
export function InstructionWarning({
  id,
  message,
  keep,
}: {
  id: string;
  /** The server's words, or null when there is nothing to warn about. */
  message: string | null;
  /** How "Keep it anyway" sends the text again with `confirm`. */
  keep: ButtonHTMLAttributes<HTMLButtonElement>;
}) {
  return (
    <div className={message ? "flex flex-col gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900" : "contents"}>
      <p id={id} role="status">
        {message}
      </p>
      {message ? (
        <div>
          <Button variant="secondary" {...keep}>
            Keep it anyway
          </Button>
        </div>
      ) : null}
    </div>
  );
}
