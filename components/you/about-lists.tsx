/**
 * The "Your data" page's read-only parts: the counts per workspace and agent,
 * then each list one page at a time, in the scope words the Memory page uses
 * (Everyone in Acme, a channel by name, Just you). No data access: the page hands them in.
 */
import Link from "next/link";
import { scopeName } from "@/lib/memory/labels";
import type { AboutWorkspace } from "@/lib/privacy/about-person";
import type { AboutCounts, AboutEvent, AboutFact, AboutList, Page } from "@/lib/privacy/types";

/** Each list's heading and what it holds, in the order the page shows them. */
export const LIST_WORDS: Record<AboutList, { title: string; description: string }> = {
  kept: { title: "Kept just for you", description: "Recalled only in your direct messages with an agent. Only you see them." },
  told: { title: "Facts you told", description: "Facts you added or told an agent, in any scope." },
  from_messages: {
    title: "From your messages",
    description: "Facts agents kept from something you wrote, that you can still see.",
  },
  events: { title: "History you caused", description: "Changes you made to facts you can still see." },
};

const VERBS: Record<string, string> = {
  remember: "Remembered",
  correct: "Corrected",
  pin: "Pinned",
  unpin: "Unpinned",
  forget: "Forgot",
  restore: "Restored",
  propose: "Proposed",
  approve: "Approved",
  decline: "Declined",
  replace: "Replaced an older fact",
};

// The Memory page's one name per scope (labels.ts); a channel fact by its channel.
function scopeInWords(fact: AboutFact): string {
  if (fact.scope === "channel") return fact.scope_label ?? scopeName("channel", fact.workspace.name);
  return scopeName(fact.scope === "workspace" ? "workspace" : "person", fact.workspace.name);
}

const STATUS_WORDS: Record<AboutFact["status"], string | null> = {
  live: null,
  proposed: "waiting for a decision",
  forgotten: "in Recently forgotten",
};

const day = (at: string) => at.slice(0, 10);

export function CountsTable({ workspaces }: { workspaces: AboutWorkspace[] }) {
  const rows = workspaces.flatMap((w) => w.agents.map((a) => ({ workspace: w, agent: a })));
  if (!rows.length) return <p className="text-sm text-slate-600">You are not in a workspace, so no agent keeps anything about you.</p>;
  const lists = Object.keys(LIST_WORDS) as AboutList[];
  return (
    // Scrolls sideways on a phone, so it takes focus: arrow keys scroll it.
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Counts per workspace and agent">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <caption className="sr-only">Counts per workspace and agent</caption>
        <thead className="text-slate-600">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              Where
            </th>
            {lists.map((list) => (
              <th key={list} scope="col" className="py-2 pr-3 font-medium">
                {LIST_WORDS[list].title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(({ workspace, agent }) => (
            <tr key={agent.id} className="border-t border-slate-200">
              <th scope="row" className="py-2 pr-3 font-medium">
                {agent.name} in {workspace.name}
              </th>
              {lists.map((list) => (
                <td key={list} className="py-2 pr-3 tabular-nums">
                  {agent.counts[list]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CountsSummary({ counts }: { counts: AboutCounts }) {
  const lists = Object.keys(LIST_WORDS) as AboutList[];
  return (
    <dl className="grid gap-3 sm:grid-cols-4">
      {lists.map((list) => (
        <div key={list} className="rounded-md bg-white p-3 ring-1 ring-slate-200">
          <dt className="text-sm text-slate-600">{LIST_WORDS[list].title}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{counts[list]}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One list's heading, page of items and paging links; `hrefFor` keeps the other lists' pages. */
function ListSection<Item>({
  list,
  page,
  hrefFor,
  render,
}: {
  list: AboutList;
  page: Page<Item>;
  hrefFor: (list: AboutList, page: number) => string;
  render: (item: Item) => React.ReactNode;
}) {
  const headingId = `list-${list}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} className="text-base font-semibold">
        {LIST_WORDS[list].title} ({page.total})
      </h3>
      <p className="text-sm text-slate-600">{LIST_WORDS[list].description}</p>
      {page.items.length ? (
        <ul className="flex flex-col gap-2" aria-labelledby={headingId}>
          {page.items.map(render)}
        </ul>
      ) : (
        <p className="text-sm text-slate-500">Nothing here.</p>
      )}
      {page.pages > 1 ? (
        <nav aria-label={`Pages of ${LIST_WORDS[list].title}`} className="flex items-center gap-3 text-sm">
          {page.page > 1 ? (
            <Link href={hrefFor(list, page.page - 1)} className="text-brand-700 hover:underline">
              Previous
            </Link>
          ) : null}
          <span>
            Page {page.page} of {page.pages}
          </span>
          {page.page < page.pages ? (
            <Link href={hrefFor(list, page.page + 1)} className="text-brand-700 hover:underline">
              Next
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}

function FactItem({ fact }: { fact: AboutFact }) {
  const status = STATUS_WORDS[fact.status];
  return (
    <li className="rounded-md bg-white p-3 ring-1 ring-slate-200">
      <p className="break-words">{fact.body}</p>
      <p className="text-xs text-slate-600">
        {fact.agent.name} in {fact.workspace.name} · {scopeInWords(fact)}
        {fact.source_label ? ` · from ${fact.source_label}` : ""} · {day(fact.updated_at)}
        {fact.valid_until ? ` · until ${fact.valid_until}` : ""}
        {status ? ` · ${status}` : ""}
      </p>
    </li>
  );
}

function EventItem({ event }: { event: AboutEvent }) {
  const text = event.after ?? event.before;
  return (
    <li className="rounded-md bg-white p-3 ring-1 ring-slate-200">
      <p className="text-sm">
        <span className="font-medium">{VERBS[event.kind] ?? event.kind}</span>
        {text ? <> &ldquo;{text}&rdquo;</> : null}
      </p>
      <p className="text-xs text-slate-600">
        {event.agent.name} in {event.workspace.name} · {day(event.at)}
      </p>
    </li>
  );
}

export function AboutLists({
  lists,
  hrefFor,
}: {
  lists: { kept: Page<AboutFact>; told: Page<AboutFact>; from_messages: Page<AboutFact>; events: Page<AboutEvent> };
  hrefFor: (list: AboutList, page: number) => string;
}) {
  const fact = (item: AboutFact) => <FactItem key={item.id} fact={item} />;
  return (
    <div className="flex flex-col gap-6">
      <ListSection list="kept" page={lists.kept} hrefFor={hrefFor} render={fact} />
      <ListSection list="told" page={lists.told} hrefFor={hrefFor} render={fact} />
      <ListSection list="from_messages" page={lists.from_messages} hrefFor={hrefFor} render={fact} />
      <ListSection
        list="events"
        page={lists.events}
        hrefFor={hrefFor}
        render={(item: AboutEvent) => <EventItem key={item.id} event={item} />}
      />
    </div>
  );
}
