import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db";
import { ProposalCount } from "@/components/memory/proposal-count";
import { CreateAgentForm } from "@/components/settings/create-agent-form";
import { listAgents } from "@/lib/admin/agents";
import { requireOwner } from "@/lib/auth/session";
import { proposalCounts } from "@/lib/memory/proposals";
import { createAgentAction } from "./actions";

export const metadata: Metadata = { title: "Agents" };

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

export default async function AgentsPage({ params }: { params: Promise<{ workspace: string }> }) {
  const { workspace } = await params;
  const owner = await requireOwner(workspace);
  const [agents, proposals] = await Promise.all([
    listAgents(getDb(), owner.workspace.id),
    proposalCounts(getDb(), { workspaceId: owner.workspace.id, id: owner.id }, owner.workspace.id),
  ]);

  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <section aria-labelledby="agents-heading" className="flex min-w-0 flex-col gap-3 lg:col-span-2">
        <h2 id="agents-heading" className="text-lg font-semibold">
          Agents ({agents.length})
        </h2>
        {agents.length === 0 ? <p className="text-sm text-slate-600">No agents yet.</p> : null}
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Agents">
          {agents.map((agent) => (
            <li key={agent.id} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
              <div className="flex items-baseline justify-between gap-2">
                <div className="flex items-center gap-2">
                  <h3 className="font-medium">{agent.name}</h3>
                  <ProposalCount
                    count={proposals.get(agent.id) ?? 0}
                    href={`/w/${owner.workspace.id}/agents/${agent.handle}/memory#inbox`}
                  />
                </div>
                <span className="text-xs text-slate-500">@{agent.handle}</span>
              </div>
              <p className="text-sm text-slate-600">
                {count(agent.facts, "fact", "facts")} · {count(agent.liveKeys, "active key", "active keys")}
              </p>
              <Link
                href={`/w/${owner.workspace.id}/settings/agents/${agent.handle}`}
                className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
              >
                Keys and settings of {agent.name}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <aside className="min-w-0">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <CreateAgentForm workspace={owner.workspace.id} action={createAgentAction} />
        </div>
      </aside>
    </div>
  );
}
