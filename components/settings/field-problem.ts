/**
 * A refusal about one field of a settings form: the message goes under that field
 * (aria-invalid, aria-describedby) and focus goes to it, so a screen reader hears
 * the message with the field and nothing typed is lost.
 */
import { useEffect, type RefObject } from "react";

type State = { status: string; message?: string; field?: string };

/** The message for `field`, when the last answer refused exactly that field. */
export function problemFor(state: State, field: string): string | undefined {
  return (state.status === "failed" || state.status === "invalid_data") && state.field === field ? state.message : undefined;
}

/** After a refusal naming a field, focus it; otherwise leave focus where it is. */
export function useFocusRefusedField(state: State, form: RefObject<HTMLFormElement | null>): void {
  useEffect(() => {
    if ((state.status !== "failed" && state.status !== "invalid_data") || !state.field) return;
    form.current?.querySelector<HTMLElement>(`[name="${CSS.escape(state.field)}"]`)?.focus();
  }, [state, form]);
}
