import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db";
import { AgentCard } from "@/components/memory/agent-card";
import { requireMember } from "@/lib/auth/session";
import { proposalCounts } from "@/lib/memory/proposals";
import { agentsWithCounts } from "@/lib/memory/store";

export const metadata: Metadata = { title: "Workspace" };

export default async function WorkspacePage({ params }: { params: Promise<{ workspace: string }> }) {
  const { workspace: workspaceId } = await params;
  const member = await requireMember(workspaceId);
  const [agents, proposals] = await Promise.all([
    agentsWithCounts(getDb(), member.workspace.id),
    // Only what this person may decide: a member's count leaves out workspace proposals, which owners decide.
    proposalCounts(getDb(), { workspaceId: member.workspace.id, id: member.id }, member.workspace.id),
  ]);
  return (
    <main className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{member.workspace.name}</h1>
          <p className="text-sm text-slate-600">
            You are {member.role === "owner" ? "an owner" : "a member"} of this workspace.
          </p>
        </div>
        {/* Only owners see the way in; the settings pages check again on the server. */}
        {member.role === "owner" ? (
          <Link
            href={`/w/${member.workspace.id}/settings`}
            className="inline-flex min-h-10 items-center rounded-md px-4 text-sm font-medium text-brand-700 ring-1 ring-slate-300 hover:bg-slate-50"
          >
            Settings
          </Link>
        ) : null}
      </div>
      <section aria-labelledby="agents-heading" className="flex flex-col gap-3">
        <h2 id="agents-heading" className="text-lg font-semibold">
          Agents
        </h2>
        {agents.length === 0 ? (
          <p className="text-sm text-slate-600">No agents yet.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Agents">
            {agents.map((agent) => (
              <AgentCard
                key={agent.id}
                workspaceId={member.workspace.id}
                agent={agent}
                proposals={proposals.get(agent.id) ?? 0}
              />
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
