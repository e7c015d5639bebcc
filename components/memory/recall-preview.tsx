import { Button } from "@/components/ui/button";
import { UrlForm } from "@/components/ui/url-form";

export type PreviewResult =
  | { status: "none" }
  | { status: "refused" }
  | { status: "ok"; placeLabel: string; facts: { id: string; body: string; pinned: boolean }[]; section: string | null };

/**
 * "What would the agent get there?": pick a place you are in and see exactly the
 * facts and the prompt section recall returns for it.
 */
export function RecallPreview({
  agentName,
  places,
  selected,
  keep,
  result,
  action,
}: {
  /** The Memory page's path. */
  action: string;
  agentName: string;
  places: { id: string; label: string }[];
  selected: string | undefined;
  /** The page's other URL parameters, kept as they are. */
  keep: Record<string, string>;
  result: PreviewResult;
}) {
  return (
    <section aria-labelledby="preview-heading" className="flex flex-col gap-3">
      <h2 id="preview-heading" className="text-lg font-semibold">
        Preview recall
      </h2>
      <UrlForm action={action} className="flex flex-col gap-2">
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label htmlFor="preview-place" className="text-sm font-medium text-slate-800">
          Place
        </label>
        <select
          id="preview-place"
          name="preview"
          defaultValue={selected ?? places[0]?.id}
          className="min-h-10 rounded-md border border-slate-300 bg-white px-2 text-sm"
        >
          {places.map((place) => (
            <option key={place.id} value={place.id}>
              {place.label}
            </option>
          ))}
        </select>
        <div>
          <Button type="submit" variant="secondary">
            Preview recall
          </Button>
        </div>
      </UrlForm>
      {result.status === "refused" ? (
        <p role="alert" aria-label="Preview problem" className="text-sm text-red-700">
          You can only preview places you are in.
        </p>
      ) : null}
      {result.status === "ok" ? (
        <div className="flex flex-col gap-2" aria-label="Recall preview">
          <p className="text-sm text-slate-700">
            In {result.placeLabel}, {agentName} would recall {result.facts.length}{" "}
            {result.facts.length === 1 ? "fact" : "facts"}:
          </p>
          {result.facts.length ? (
            <ol aria-label="Recalled facts" className="list-decimal pl-5 text-sm">
              {result.facts.map((fact) => (
                <li key={fact.id}>
                  {fact.body}
                  {fact.pinned ? " (pinned)" : ""}
                </li>
              ))}
            </ol>
          ) : null}
          <p className="text-sm font-medium text-slate-800">Prompt section</p>
          <pre
            aria-label="Prompt section"
            className="max-h-80 overflow-auto rounded-md bg-slate-900 p-3 text-xs whitespace-pre-wrap text-slate-100"
          >
            {result.section ?? "(none: with no facts, no section is added)"}
          </pre>
        </div>
      ) : null}
    </section>
  );
}
