"use client";

import { useId } from "react";
import { Field } from "@/components/ui/field";
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
    <Field
      label={label}
      id={id}
      type="date"
      name={name}
      value={value}
      min={today}
      required={required}
      onChange={(event) => onChange(event.target.value)}
      className="w-fit"
      note="The last day it holds (UTC). From the next day agents no longer recall it."
    />
  );
}
