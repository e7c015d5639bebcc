"use client";

import { useId } from "react";
import { MAX_FACT } from "@/lib/memory/rules";

/** The text of a fact, with a live count of the characters left. */
export function FactTextArea({
  label,
  value,
  onChange,
  name,
  autoFocus,
  describedBy,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  name?: string;
  autoFocus?: boolean;
  /** The id of a note about the text (the instruction-like warning), read with the field after its count. */
  describedBy?: string;
}) {
  const id = useId();
  const left = MAX_FACT - value.length;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={MAX_FACT}
        rows={3}
        autoFocus={autoFocus}
        aria-describedby={describedBy ? `${id}-count ${describedBy}` : `${id}-count`}
        className="w-full resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 sm:text-sm"
      />
      <p id={`${id}-count`} aria-live="polite" className={`text-xs ${left < 50 ? "text-amber-700" : "text-slate-500"}`}>
        {value.length} / {MAX_FACT} characters
      </p>
    </div>
  );
}
