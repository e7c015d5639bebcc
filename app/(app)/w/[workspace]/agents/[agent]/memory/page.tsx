import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { getDb } from "@/db";
import { AddFactForm } from "@/components/memory/add-fact-form";
import type { FactView } from "@/components/memory/fact-card";
import { FactFilters } from "@/components/memory/fact-filters";
import { FactGroup } from "@/components/memory/fact-group";
import { ImportFacts } from "@/components/memory/import-facts";
import { ForgottenList } from "@/components/memory/forgotten-list";
import { MemoryProvider } from "@/components/memory/memory-context";
import { QuotaMeter } from "@/components/memory/quota-meter";
import { RecallPreview, type PreviewResult } from "@/components/memory/recall-preview";
import { ToastProvider } from "@/components/ui/toast";
import { agentByHandle } from "@/lib/agents";
import { requireMember } from "@/lib/auth/session";
import { readableChannels, type ReadableChannel } from "@/lib/memory/channels";
import { derivePlace, PlaceError } from "@/lib/memory/place";
import { memorySection } from "@/lib/memory/prompt-section";
import { changeableBy, FORGET_GRACE_DAYS, type Scope, type Viewer } from "@/lib/memory/rules";
import {
  countVisibleFacts,
  decodeCursor,
  listForgottenFacts,
  listVisibleFacts,
  liveFactCount,
  recall,
  type FactFilters as Filters,
  type ListedFact,
} from "@/lib/memory/store";
import { graceCutoff } from "@/lib/memory/writes";
import { requestTime } from "@/lib/ids";
import { firstValues, memoryPageParams, type MemoryPageParams } from "@/lib/validation/memory";
import {
  addFactAction,
  correctFactAction,
  factHistoryAction,
  forgetFactAction,
  pinFactAction,
  purgeFactAction,
  restoreFactAction,
} from "./actions";

type Props = {
  params: Promise<{ workspace: string; agent: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { agent } = await params;
  return { title: `@${agent}'s memory` };
}

const GROUPS: { scope: Scope; id: string; title: string; description: string }[] = [
  { scope: "workspace", id: "group-workspace", title: "Workspace", description: "Recalled anywhere in the workspace." },
  { scope: "channel", id: "group-channel", title: "Conversations", description: "Recalled only in their channel." },
  { scope: "person", id: "group-person", title: "Just you", description: "Recalled only in your direct message." },
];

const dateOnly = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

/** The page's URL with some parameters changed (undefined removes one). */
function hrefWith(base: string, params: MemoryPageParams, changes: Partial<Record<keyof MemoryPageParams, string | undefined>>) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...params, ...changes })) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${base}?${text}` : base;
}

function toView(fact: ListedFact, agentName: string, viewer: Viewer): FactView {
  return {
    id: fact.id,
    body: fact.body,
    scope: fact.scope as Scope,
    channelLabel: fact.scope === "channel" ? (fact.scopeLabel ?? `#${fact.scopeRef}`) : null,
    keptBy: fact.createdByKind === "agent" ? agentName : `Told by ${fact.createdByName ?? "a former member"}`,
    // For a fact a person told, "from @them" would only repeat "Told by"; after a correction it says who corrected it.
    sourceLabel: fact.sourceKind === "person" && !fact.correctedAt ? null : fact.sourceLabel,
    corrected: Boolean(fact.correctedAt),
    pinned: fact.pinned,
    version: fact.version,
    updatedAt: fact.updatedAt,
    canChange: changeableBy(fact, viewer),
  };
}

async function previewFor(
  workspaceId: string,
  agentId: string,
  userId: string,
  channelId: string | undefined,
  channels: ReadableChannel[],
): Promise<PreviewResult> {
  if (!channelId) return { status: "none" };
  try {
    const { place } = await derivePlace(getDb(), workspaceId, channelId, userId);
    const facts = await recall(getDb(), agentId, place);
    const label = channels.find((c) => c.id === channelId)?.label ?? channelId;
    return {
      status: "ok",
      placeLabel: label,
      facts: facts.map((f) => ({ id: f.id, body: f.body, pinned: f.pinned })),
      section: memorySection(facts),
    };
  } catch (error) {
    if (error instanceof PlaceError) return { status: "refused" };
    throw error;
  }
}

export default async function MemoryPage({ params, searchParams }: Props) {
  const { workspace: workspaceId, agent: handle } = await params;
  const member = await requireMember(workspaceId);
  const db = getDb();
  const agent = await agentByHandle(db, workspaceId, handle);
  if (!agent) notFound();

  const query = memoryPageParams.parse(firstValues(await searchParams));
  const sqlViewer = { workspaceId, userId: member.id };
  const channels = await readableChannels(db, sqlViewer);
  const readable = new Set(channels.map((c) => c.id));
  const viewer: Viewer = { workspaceId, id: member.id, owner: member.role === "owner", canRead: (id) => readable.has(id) };
  const filters: Filters = {
    search: query.q,
    scope: query.scope,
    channelId: query.channel,
    pinned: query.pinned === undefined ? undefined : query.pinned === "yes",
    keptBy: query.kept,
    sourceKind: query.source,
  };

  const groups = GROUPS.filter((group) => !query.scope || query.scope === group.scope);
  const [counts, pages, kept, forgotten, preview] = await Promise.all([
    countVisibleFacts(db, sqlViewer, agent.id, filters),
    Promise.all(
      groups.map((group) =>
        listVisibleFacts(db, sqlViewer, agent.id, {
          ...filters,
          scope: group.scope,
          after: decodeCursor(query[`after_${group.scope}`]),
        }),
      ),
    ),
    liveFactCount(db, agent.id),
    listForgottenFacts(db, sqlViewer, agent.id, graceCutoff()),
    previewFor(workspaceId, agent.id, member.id, query.preview, channels),
  ]);

  const base = `/w/${workspaceId}/agents/${agent.handle}/memory`;
  const now = requestTime();
  const places = [...channels].sort((a, b) => Number(b.isOwnDm) - Number(a.isOwnDm));
  const keep = Object.fromEntries(
    Object.entries(query).filter(([key, value]) => key !== "preview" && typeof value === "string"),
  ) as Record<string, string>;

  return (
    <MemoryProvider
      value={{
        workspace: workspaceId,
        agent: agent.handle,
        agentName: agent.name,
        now,
        actions: {
          addFact: addFactAction,
          correctFact: correctFactAction,
          pinFact: pinFactAction,
          forgetFact: forgetFactAction,
          restoreFact: restoreFactAction,
          purgeFact: purgeFactAction,
          factHistory: factHistoryAction,
        },
      }}
    >
      <ToastProvider>
        <main className="flex flex-col gap-8">
          <header className="flex flex-col gap-4">
            <div>
              <p className="text-sm text-slate-500">{member.workspace.name}</p>
              <h1 className="text-2xl font-semibold tracking-tight">{agent.name}&apos;s memory</h1>
            </div>
            <div className="flex flex-col gap-2 text-sm text-slate-700">
              <p>
                {agent.name} has no hidden memory: every fact it can recall is here, shown to the people allowed to see
                it. Each fact&apos;s scope decides where it is recalled and who sees it.
              </p>
              <dl className="grid gap-2 sm:grid-cols-3">
                <div className="rounded-md bg-white p-3 ring-1 ring-slate-200">
                  <dt className="font-medium">Workspace</dt>
                  <dd className="text-slate-600">Recalled anywhere. Every member sees it; only owners change it.</dd>
                </div>
                <div className="rounded-md bg-white p-3 ring-1 ring-slate-200">
                  <dt className="font-medium">Conversations</dt>
                  <dd className="text-slate-600">Recalled only in its channel. Seen and changed by the people who can read it.</dd>
                </div>
                <div className="rounded-md bg-white p-3 ring-1 ring-slate-200">
                  <dt className="font-medium">Just you</dt>
                  <dd className="text-slate-600">
                    Recalled only in your direct message with {agent.name}. Only you see it, owners included.
                  </dd>
                </div>
              </dl>
            </div>
            <div className="flex flex-wrap items-end justify-between gap-4">
              <div className="w-full max-w-sm">
                <QuotaMeter used={kept} label={`${agent.name}'s memory`} />
              </div>
              {/* A plain link: the route handler answers with a file to save. */}
              <a href={`${base}/export`} download className="text-sm font-medium text-brand-700 hover:underline">
                Download as JSON
              </a>
            </div>
          </header>

          <div className="grid gap-8 lg:grid-cols-3">
            <div className="flex min-w-0 flex-col gap-8 lg:col-span-2">
              <FactFilters
                // A new form for new parameters: its fields show the URL's values after back and forward too.
                key={JSON.stringify([query.q, query.scope, query.channel, query.pinned, query.kept, query.source])}
                params={query} channels={channels} agentName={agent.name} clearHref={base} />
              {groups.map((group, i) => {
                const page = pages[i];
                const after = query[`after_${group.scope}`];
                return (
                  <FactGroup
                    key={group.scope}
                    id={group.id}
                    title={group.title}
                    description={group.description}
                    count={counts[group.scope]}
                    facts={page.facts.map((fact) => toView(fact, agent.name, viewer))}
                    olderHref={page.next ? hrefWith(base, query, { [`after_${group.scope}`]: page.next }) : null}
                    newestHref={after ? hrefWith(base, query, { [`after_${group.scope}`]: undefined }) : null}
                  />
                );
              })}
              <section aria-labelledby="forgotten-heading" className="flex flex-col gap-3">
                <h2 id="forgotten-heading" className="text-lg font-semibold">
                  Recently forgotten
                </h2>
                <p className="text-sm text-slate-600">
                  Forgotten facts are never recalled. They can be restored for {FORGET_GRACE_DAYS} days, then they and
                  their history are deleted.
                </p>
                <ForgottenList
                  facts={forgotten.map((fact) => ({
                    id: fact.id,
                    body: fact.body,
                    forgottenAt: fact.forgottenAt ?? "",
                    purgeOn: dateOnly.format(
                      new Date(new Date(fact.forgottenAt ?? 0).getTime() + FORGET_GRACE_DAYS * 86_400_000),
                    ),
                  }))}
                />
              </section>
            </div>
            <aside className="flex min-w-0 flex-col gap-8">
              <div className="rounded-lg border border-slate-200 bg-white p-4">
                <AddFactForm
                  channels={channels.map((c) => ({ id: c.id, label: c.label }))}
                  canWriteWorkspace={member.role === "owner"}
                />
              </div>
              {member.role === "owner" ? (
                <div className="rounded-lg border border-slate-200 bg-white p-4">
                  <ImportFacts workspace={workspaceId} agent={agent.handle} agentName={agent.name} />
                </div>
              ) : null}
              <div className="rounded-lg border border-slate-200 bg-white p-4">
                <RecallPreview
                  action={base}
                  agentName={agent.name}
                  places={places.map((c) => ({ id: c.id, label: c.label }))}
                  selected={query.preview}
                  keep={keep}
                  result={preview}
                />
              </div>
            </aside>
          </div>
        </main>
      </ToastProvider>
    </MemoryProvider>
  );
}
