/**
 * A refused action's message, next to the form that sent it, read out at once —
 * unless it is about one of `fields`, which the form shows under that field instead.
 */
export function FormProblem({
  state,
  label,
  fields = [],
}: {
  state: { status: string; message?: string; field?: string };
  label: string;
  fields?: string[];
}) {
  if (state.status !== "failed" && state.status !== "invalid_data") return null;
  if (state.field && fields.includes(state.field)) return null;
  return (
    <p role="alert" aria-label={label} className="text-sm text-red-700">
      {state.message}
    </p>
  );
}
