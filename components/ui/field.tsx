import type { InputHTMLAttributes } from "react";

/** A labelled input; the label is always visible and tied to the input, as are a note and an error when given. */
export function Field({
  label,
  id,
  error,
  note,
  className = "",
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; id: string; error?: string; note?: string }) {
  const describedBy = [note ? `${id}-note` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={`min-h-10 rounded-md border border-slate-300 bg-white px-3 text-base shadow-sm focus:border-brand-600 sm:text-sm ${className}`}
        {...props}
      />
      {note ? (
        <p id={`${id}-note`} className="text-xs text-slate-500">
          {note}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
