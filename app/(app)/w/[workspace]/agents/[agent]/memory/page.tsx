import type { Metadata } from "next";
import { ExpiredSection } from "@/components/memory/expired-section";
import { FactFilters } from "@/components/memory/fact-filters";
import { FactGroup } from "@/components/memory/fact-group";
import { ForgottenSection } from "@/components/memory/forgotten-section";
import { Inbox } from "@/components/memory/inbox";
import { LiveUpdates } from "@/components/memory/live-updates";
import { MemoryProvider } from "@/components/memory/memory-context";
import { MemoryHeader } from "@/components/memory/memory-header";
import { MemoryShortcuts } from "@/components/memory/memory-shortcuts";
import { MemoryTools } from "@/components/memory/memory-tools";
import { ToastProvider } from "@/components/ui/toast";
import { getDb } from "@/db";
import { currentUser, memberAndAgent, requireMemberAndAgent } from "@/lib/auth/session";
import { liveVersionOf } from "@/lib/live/memory-watcher";
import type { FactOrder } from "@/lib/memory/fact-order";
import { firstValues, memoryPageParams } from "@/lib/validation/memory";
import {
  addFactAction,
  correctFactAction,
  factHistoryAction,
  forgetFactAction,
  pinFactAction,
  purgeFactAction,
  renewFactAction,
  restoreFactAction,
} from "./actions";
import { loadMemoryPage } from "./load-memory-page";
import { keepBothAction, replaceOlderAction } from "./look-alike-actions";
import { approveProposalAction, declineProposalAction } from "./proposal-actions";

type Props = {
  params: Promise<{ workspace: string; agent: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** "Scout's memory · Acme", as the page's heading names it; a plain "Memory" for anyone the page itself will refuse. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { workspace, agent: handle } = await params;
  const user = await currentUser();
  const found = user ? await memberAndAgent(user, workspace, handle) : null;
  return { title: found ? `${found.agent.name}'s memory · ${found.member.workspace.name}` : "Memory" };
}

const inboxActions = { approve: approveProposalAction, decline: declineProposalAction };

const actions = {
  addFact: addFactAction,
  correctFact: correctFactAction,
  pinFact: pinFactAction,
  renewFact: renewFactAction,
  forgetFact: forgetFactAction,
  restoreFact: restoreFactAction,
  purgeFact: purgeFactAction,
  factHistory: factHistoryAction,
  replaceOlder: replaceOlderAction,
  keepBoth: keepBothAction,
};

export default async function MemoryPage({ params, searchParams }: Props) {
  const { workspace, agent: handle } = await params;
  const { member, agent } = await requireMemberAndAgent(workspace, handle);
  const query = memoryPageParams.parse(firstValues(await searchParams));
  // Read before the page: a change made while it loads moves the version past this, so the stream says so at once.
  const version = await liveVersionOf(getDb(), agent.id);
  const page = await loadMemoryPage(member, agent, query);
  // Nothing at all to list or filter: one empty state that says what to do, not a filter form over three empty groups.
  const nothingYet =
    !(query.q || query.scope || query.channel || query.pinned || query.kept || query.source || query.recalled) &&
    page.groups.every((group) => group.count === 0) &&
    page.expired.total === 0 &&
    page.forgotten.length === 0 &&
    page.proposals.length === 0;
  const searching = [query.q, query.scope, query.channel, query.pinned, query.kept, query.source, query.recalled].some(Boolean);

  return (
    <MemoryProvider value={{ workspace, agent: agent.handle, agentName: agent.name, now: page.now, actions }}>
      <ToastProvider>
        <LiveUpdates href={`${page.base}/live`} since={version} startedAt={page.now}>
          <main className="flex flex-col gap-8">
            <MemoryShortcuts />
            <MemoryHeader
              workspaceName={member.workspace.name}
              agentName={agent.name}
              kept={page.kept}
              expired={page.expired.total}
              exportHref={`${page.base}/export`}
              beyondLimit={page.beyondLimit}
            />
            {page.waiting ? <p className="-mt-4 text-sm text-slate-700">{page.waiting}</p> : null}
            <div className="grid gap-8 lg:grid-cols-3">
              <div className="flex min-w-0 flex-col gap-8 lg:col-span-2">
                <Inbox proposals={page.proposals} actions={inboxActions} />
                {/* Outside the keyed filters, so it stays in place and a search's result is read out politely. */}
                <p role="status" className="sr-only">
                  {[searching ? matchWords(page.groups.reduce((sum, group) => sum + group.count, 0), query.q) : "", SORT_WORDS[query.sort ?? "newest"]]
                    .filter(Boolean)
                    .join(" ")}
                </p>
                {nothingYet ? (
                  <section aria-labelledby="empty-heading" className="rounded-lg border border-dashed border-slate-300 bg-white p-6">
                    <h2 id="empty-heading" className="text-lg font-semibold">
                      {agent.name} knows nothing you can see yet
                    </h2>
                    <p className="mt-2 text-sm text-slate-700">
                      Tell it a fact with Remember a fact (press <kbd>n</kbd>), or let it learn from conversations: an owner
                      gives it a key under Settings. What it keeps shows up here, with who sees it and where it is recalled.
                    </p>
                  </section>
                ) : (
                  <>
                  <FactFilters
                    // A new form for new parameters: its fields show the URL's values after back and forward too.
                    key={JSON.stringify([query.q, query.scope, query.channel, query.pinned, query.kept, query.source, query.recalled, query.sort])}
                    params={query} channels={page.channels} agentName={agent.name} workspaceName={member.workspace.name} action={page.base} clearHref={page.clearFiltersHref} />
                  {page.groups.map((group) => (
                    <FactGroup key={group.scope} {...group} />
                  ))}
                  </>
                )}
                <ExpiredSection facts={page.expired.facts} total={page.expired.total} />
                <ForgottenSection facts={page.forgotten} />
              </div>
              <MemoryTools
                workspace={workspace}
                agent={agent.handle}
                agentName={agent.name}
                isOwner={member.role === "owner"}
                workspaceName={member.workspace.name}
                hasOwnDm={page.hasOwnDm}
                channels={page.channels.map((c) => ({ id: c.id, label: c.label }))}
                places={page.places}
                pagePath={page.base}
                selectedPlace={query.preview}
                previewQuestion={query.preview_q}
                previewBudget={query.preview_budget}
                keep={page.keep}
                preview={page.preview}
              />
            </div>
          </main>
          </LiveUpdates>
      </ToastProvider>
    </MemoryProvider>
  );
}

/** The order a sort put the lists in, said once it applies (the default is the page as it opened: nothing to say). */
const SORT_WORDS: Record<FactOrder, string> = { newest: "", oldest: "Oldest facts first.", recalled: "Most recalled facts first." };

/** "3 facts match “refund”." — what a search or filter found, for the status region. */
function matchWords(count: number, q: string | undefined): string {
  const facts = count === 1 ? "1 fact matches" : `${count.toLocaleString("en-US")} facts match`;
  return q ? `${facts} “${q}”.` : `${facts} the filters.`;
}
