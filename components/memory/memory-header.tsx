import { scopeName } from "@/lib/memory/labels";
import { RECALL_LIMIT } from "@/lib/memory/rules";
import { QuotaMeter } from "./quota-meter";

/**
 * The top of the Memory page: whose memory this is, what each scope means, how
 * full it is, and the download link.
 */
export function MemoryHeader({
  workspaceName,
  agentName,
  kept,
  expired = 0,
  exportHref,
  beyondLimit = null,
}: {
  workspaceName: string;
  agentName: string;
  /** Live facts the agent keeps, of its limit. */
  kept: number;
  /** Expired facts this person could forget to make room (the Expired section's count). */
  expired?: number;
  exportHref: string;
  /** More facts apply in the place the person is looking at than the agent recalls there. */
  beyondLimit?: { place: string; applies: number } | null;
}) {
  return (
    <header className="flex flex-col gap-4">
      <div>
        <p className="text-sm text-slate-500">{workspaceName}</p>
        <h1 className="text-2xl font-semibold tracking-tight">{agentName}&apos;s memory</h1>
      </div>
      <div className="flex flex-col gap-2 text-sm text-slate-700">
        {/* "No hidden memory" would be untrue where facts wait beyond the recall limit: then the page says how many. */}
        {beyondLimit ? (
          <p>
            Every fact {agentName} can recall is here. In {beyondLimit.place}, {beyondLimit.applies} facts apply and{" "}
            {agentName} recalls the {RECALL_LIMIT} pinned or newest; the others are marked &ldquo;Not recalled&rdquo; and
            come back when someone asks about them.
          </p>
        ) : (
          <p>
            {agentName} has no hidden memory: every fact it can recall is here, shown to the people allowed to see
            it. Each fact&apos;s scope decides where it is recalled and who sees it.
          </p>
        )}
        <dl className="grid gap-2 sm:grid-cols-3">
          <div className="rounded-md bg-white p-3 ring-1 ring-slate-200">
            <dt className="font-medium">{scopeName("workspace", workspaceName)}</dt>
            <dd className="text-slate-600">Recalled anywhere. Every member sees it; only owners change it.</dd>
          </div>
          <div className="rounded-md bg-white p-3 ring-1 ring-slate-200">
            <dt className="font-medium">{scopeName("channel", workspaceName)}</dt>
            <dd className="text-slate-600">Recalled only in its channel. Seen and changed by the people who can read it.</dd>
          </div>
          <div className="rounded-md bg-white p-3 ring-1 ring-slate-200">
            <dt className="font-medium">{scopeName("person", workspaceName)}</dt>
            <dd className="text-slate-600">
              Recalled only in your DM with {agentName}. Only you see it, owners included.
            </dd>
          </div>
        </dl>
      </div>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="w-full max-w-sm">
          <QuotaMeter used={kept} expired={expired} label={`${agentName}'s memory`} />
        </div>
        {/* A plain link: the route handler answers with a file to save. */}
        <a href={exportHref} download className="text-sm font-medium text-brand-700 hover:underline">
          Download as JSON
        </a>
      </div>
    </header>
  );
}
