import type { SelectHTMLAttributes } from "react";

/** A labelled native select, styled like Field; native so it works with any keyboard and on phones. */
export function Select({
  label,
  id,
  hideLabel = false,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; id: string; hideLabel?: boolean }) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={hideLabel ? "sr-only" : "text-sm font-medium text-slate-800"}>
        {label}
      </label>
      <select
        id={id}
        className="min-h-10 rounded-md border border-slate-300 bg-white px-3 text-base disabled:bg-slate-100 disabled:text-slate-500 sm:text-sm"
        {...props}
      >
        {children}
      </select>
    </div>
  );
}
