/** A refused action's message, next to the form that sent it, read out at once. */
export function FormProblem({ state, label }: { state: { status: string; message?: string }; label: string }) {
  if (state.status !== "failed" && state.status !== "invalid_data") return null;
  return (
    <p role="alert" aria-label={label} className="text-sm text-red-700">
      {state.message}
    </p>
  );
}
