import Link from "next/link";
import { Button } from "@/components/ui/button";
import { UrlForm } from "@/components/ui/url-form";
import { scopeName } from "@/lib/memory/labels";
import { NOT_RECALLED_RECENTLY, RECENT_RECALL_DAYS, type MemoryPageParams } from "@/lib/validation/memory";

const selectClass = "min-h-10 rounded-md border border-slate-300 bg-white px-2 text-sm";

/**
 * Search, filters and sort as a plain GET form: the URL keeps them, so a filtered
 * or sorted view can be shared and the back button works, with or without JavaScript.
 */
export function FactFilters({
  params,
  channels,
  agentName,
  workspaceName,
  action,
  clearHref,
}: {
  params: MemoryPageParams;
  channels: { id: string; label: string }[];
  agentName: string;
  workspaceName: string;
  /** The page's path: the form sends its fields there. */
  action: string;
  /** The page without its filters, keeping the sort (load-memory-page.ts). */
  clearHref: string;
}) {
  const filtered = Boolean(params.q || params.scope || params.channel || params.pinned || params.kept || params.source || params.recalled);
  return (
    <UrlForm action={action} focusAfter="[data-results-heading]" role="search" aria-label="Search and filter facts" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-col gap-1.5">
        <label htmlFor="filter-q" className="text-sm font-medium text-slate-800">
          Search facts
        </label>
        <input
          id="filter-q"
          name="q"
          type="search"
          defaultValue={params.q ?? ""}
          placeholder="Words in the fact"
          className="min-h-10 rounded-md border border-slate-300 bg-white px-3 text-base sm:text-sm"
        />
      </div>
      {/* Columns at least 12rem wide, so no select cuts its choice ("All channe") at any width. */}
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[repeat(auto-fill,minmax(12rem,1fr))]">
        <Select id="filter-scope" label="Scope" name="scope" value={params.scope}>
          <option value="">All scopes</option>
          <option value="workspace">{scopeName("workspace", workspaceName)}</option>
          <option value="channel">{scopeName("channel", workspaceName)}</option>
          <option value="person">{scopeName("person", workspaceName)}</option>
        </Select>
        <Select id="filter-channel" label="Channel" name="channel" value={params.channel}>
          <option value="">All channels</option>
          {channels.map((channel) => (
            <option key={channel.id} value={channel.id}>
              {channel.label}
            </option>
          ))}
        </Select>
        <Select id="filter-pinned" label="Pinned" name="pinned" value={params.pinned}>
          <option value="">Pinned or not</option>
          <option value="yes">Pinned</option>
          <option value="no">Not pinned</option>
        </Select>
        <Select id="filter-kept" label="Kept by" name="kept" value={params.kept}>
          <option value="">Anyone</option>
          <option value="agent">{agentName}</option>
          <option value="people">People</option>
        </Select>
        <Select id="filter-source" label="Source" name="source" value={params.source}>
          <option value="">Any source</option>
          <option value="message">A message</option>
          <option value="session">A session</option>
          <option value="person">A person</option>
        </Select>
        <Select id="filter-recalled" label="Recalled" name="recalled" value={params.recalled}>
          <option value="">Any time or never</option>
          <option value={NOT_RECALLED_RECENTLY}>Not in {RECENT_RECALL_DAYS} days</option>
        </Select>
        {/* Newest first is the default and leaves the URL clean (an empty field is dropped). */}
        <Select id="filter-sort" label="Sort" name="sort" value={params.sort === "newest" ? "" : params.sort}>
          <option value="">Newest first</option>
          <option value="oldest">Oldest first</option>
          <option value="recalled">Most recalled first</option>
        </Select>
      </div>
      <div className="flex items-center gap-3">
        <Button type="submit" variant="secondary">
          Apply
        </Button>
        {filtered ? (
          <Link href={clearHref} className="text-sm text-brand-700 underline-offset-4 hover:underline">
            Clear filters
          </Link>
        ) : null}
      </div>
    </UrlForm>
  );
}

function Select({
  id,
  label,
  name,
  value,
  children,
}: {
  id: string;
  label: string;
  name: string;
  value: string | undefined;
  children: React.ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value ?? ""} className={selectClass}>
        {children}
      </select>
    </div>
  );
}
