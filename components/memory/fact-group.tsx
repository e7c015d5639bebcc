import { FactCard, type FactView } from "./fact-card";
import { PageLink } from "./page-link";

export type FactGroupProps = {
  id: string;
  title: string;
  description: string;
  count: number;
  facts: FactView[];
  olderHref: string | null;
  newestHref: string | null;
  /** The paging links' words in the list's order (older, newer, less recalled…); newest-first's by default. */
  pageWords?: { next: string; first: string };
  /** What an empty group says: what to do next, or that the filters found none here. */
  emptyText?: string;
  /** Where this page sits in the group ("26–50 of 92"), when the group has more than one page. */
  range?: { from: number; to: number } | null;
};

/** One group of the Memory page (Everyone in Acme, Channels, Just you): its count, one page of facts, and paging. */
export function FactGroup({
  id,
  title,
  description,
  count,
  facts,
  olderHref,
  newestHref,
  range = null,
  emptyText = "No facts here.",
  pageWords = { next: "Older facts →", first: "← Newest facts" },
}: FactGroupProps) {
  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline gap-x-3">
        {/* Focusable from script: focus lands here when the last card of the group is forgotten, and after a search. */}
        <h2 id={`${id}-heading`} tabIndex={-1} data-results-heading className="text-lg font-semibold">
          {title} <span className="text-sm font-normal text-slate-500">({count})</span>
          {range ? (
            <span data-range className="ml-2 text-sm font-normal text-slate-600">
              {range.from}–{range.to} of {count}
            </span>
          ) : null}
        </h2>
        <p className="text-sm text-slate-600">{description}</p>
      </div>
      {facts.length === 0 ? (
        <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">{emptyText}</p>
      ) : (
        <ul aria-label={`${title} facts`} className="flex flex-col gap-2">
          {/* Keyed by id alone: a live refresh bringing someone else's change must not close an open edit or its conflict notice. */}
          {facts.map((fact) => (
            <FactCard key={fact.id} fact={fact} />
          ))}
        </ul>
      )}
      {olderHref || newestHref ? (
        <nav aria-label={`${title} pages`} className="flex gap-4 text-sm">
          {newestHref ? (
            <PageLink href={newestHref} headingId={`${id}-heading`}>
              {pageWords.first}
            </PageLink>
          ) : null}
          {olderHref ? (
            <PageLink href={olderHref} headingId={`${id}-heading`}>
              {pageWords.next}
            </PageLink>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
