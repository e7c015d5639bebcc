"use client";

import { useId } from "react";
import { useMemory } from "./memory-context";

/**
 * A fact's "Until": the last day it holds, as a date field from today (the server's UTC
 * day, so the browser's zone can't offer a day the server refuses). Blank means no end.
 */
export function UntilField({
  label = "Until (optional)",
  name,
  value,
  onChange,
  required,
}: {
  label?: string;
  name?: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
}) {
  const { now } = useMemory();
  const id = useId();
  const today = new Date(now).toISOString().slice(0, 10);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        type="date"
        name={name}
        value={value}
        min={today}
        required={required}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={`${id}-note`}
        className="min-h-10 w-fit rounded-md border border-slate-300 bg-white px-3 text-sm"
      />
      <p id={`${id}-note`} className="text-xs text-slate-500">
        The last day it holds (UTC). From the next day agents no longer recall it.
      </p>
    </div>
  );
}
