"use client";

import { useId, useState } from "react";
import { MAX_FACT } from "@/lib/memory/rules";

/** Within this many characters of the limit, the count is read out as it changes; before that it would be noise on every key. */
const NEAR_LIMIT = 50;

/**
 * The text of a fact, with a count of its characters. Text past the limit (a paste)
 * is cut to the limit and the field says so, with how much was cut — never silently.
 */
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
  // How long the last change would have been, when it was cut to the limit; cleared by the next change that fits.
  const [cutFrom, setCutFrom] = useState<number | null>(null);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        value={value}
        onChange={(event) => {
          const next = event.target.value;
          setCutFrom(next.length > MAX_FACT ? next.length : null);
          onChange(next.length > MAX_FACT ? next.slice(0, MAX_FACT) : next);
        }}
        rows={3}
        autoFocus={autoFocus}
        aria-describedby={[`${id}-count`, cutFrom ? `${id}-cut` : "", describedBy ?? ""].filter(Boolean).join(" ")}
        className="w-full resize-y rounded-md border border-slate-300 bg-white px-3 py-2 text-base shadow-sm focus:border-brand-600 sm:text-sm"
      />
      <p id={`${id}-count`} className={`text-xs ${left < NEAR_LIMIT ? "text-amber-800" : "text-slate-600"}`}>
        {value.length} / {MAX_FACT} characters
      </p>
      <p role="status" className="sr-only">
        {left <= NEAR_LIMIT && !cutFrom ? `${left} ${left === 1 ? "character" : "characters"} left` : ""}
      </p>
      {cutFrom ? (
        <p id={`${id}-cut`} role="alert" className="text-sm text-amber-900">
          That was {cutFrom} characters; a fact holds {MAX_FACT}, so only the first {MAX_FACT} are kept. The last{" "}
          {cutFrom - MAX_FACT} were cut: check the end before you save.
        </p>
      ) : null}
    </div>
  );
}
