import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db";
import { AgentCard } from "@/components/memory/agent-card";
import { StartWorkspaceForm } from "@/components/settings/start-workspace-form";
import { ToastProvider } from "@/components/ui/toast";
import { requireUser } from "@/lib/auth/session";
import { proposalCounts } from "@/lib/memory/proposals";
import { workspacesOf } from "@/lib/workspaces";
import { createWorkspaceAction } from "./actions";

export const metadata: Metadata = { title: "Your workspaces" };

export default async function HomePage() {
  const user = await requireUser();
  const workspaces = await workspacesOf(getDb(), user.id);
  // Per workspace, the proposals this person may decide (owners: workspace facts; readers: their channels').
  const proposals = await Promise.all(
    workspaces.map((workspace) => proposalCounts(getDb(), { workspaceId: workspace.id, id: user.id }, workspace.id)),
  );
  return (
    <main className="flex flex-col gap-8">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Your workspaces</h1>
        <p className="text-sm text-slate-600">Each agent&apos;s memory, as you are allowed to see it.</p>
      </div>
      {workspaces.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-slate-600">
          You are not in a workspace yet. Ask a workspace owner to add you, or start one below.
        </p>
      ) : (
        workspaces.map((workspace, i) => (
          <section key={workspace.id} aria-labelledby={`ws-${workspace.id}`} className="flex flex-col gap-3">
            <div className="flex items-baseline gap-3">
              <h2 id={`ws-${workspace.id}`} className="text-lg font-semibold">
                <Link href={`/w/${workspace.id}`} className="hover:underline">
                  {workspace.name}
                </Link>
              </h2>
              <span className="text-xs text-slate-500">{workspace.role === "owner" ? "Owner" : "Member"}</span>
            </div>
            {workspace.agents.length === 0 ? (
              <p className="text-sm text-slate-600">No agents yet.</p>
            ) : (
              <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={`${workspace.name} agents`}>
                {workspace.agents.map((agent) => (
                  <AgentCard
                    key={agent.id}
                    workspaceId={workspace.id}
                    agent={agent}
                    proposals={proposals[i].get(agent.id) ?? 0}
                  />
                ))}
              </ul>
            )}
          </section>
        ))
      )}
      <div className="max-w-xl rounded-lg border border-slate-200 bg-white p-4">
        <ToastProvider>
          <StartWorkspaceForm action={createWorkspaceAction} />
        </ToastProvider>
      </div>
    </main>
  );
}
