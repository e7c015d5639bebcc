import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { getDb } from "@/db";
import { CreateKeyForm, KeyList } from "@/components/settings/agent-keys";
import { DeleteAgent, RenameAgentForm } from "@/components/settings/agent-settings";
import { WritePoliciesForm } from "@/components/settings/write-policies-form";
import { listAgentKeys } from "@/lib/admin/agent-keys";
import { agentSummary } from "@/lib/admin/agents";
import { currentUser, memberAndAgent, requireOwner } from "@/lib/auth/session";
import { requestTime } from "@/lib/ids";
import { writePolicies } from "@/lib/memory/proposals";
import { createKeyAction, deleteAgentAction, renameAgentAction, revokeKeyAction, setWritePoliciesAction } from "./actions";

type Props = { params: Promise<{ workspace: string; agent: string }> };

/** "Scout's settings · Acme" for an owner, as the Memory page names the agent; a plain "Agent settings" for anyone the page refuses. */
export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { workspace, agent: handle } = await params;
  const user = await currentUser();
  const found = user ? await memberAndAgent(user, workspace, handle) : null;
  return {
    title: found?.member.role === "owner" ? `${found.agent.name}'s settings · ${found.member.workspace.name}` : "Agent settings",
  };
}

export default async function AgentSettingsPage({ params }: Props) {
  const { workspace, agent: handle } = await params;
  const owner = await requireOwner(workspace);
  const db = getDb();
  const agent = await agentSummary(db, owner.workspace.id, handle);
  if (!agent) notFound();
  const [keys, policies] = await Promise.all([
    listAgentKeys(db, owner.workspace.id, agent.id),
    writePolicies(db, owner.workspace.id, agent.id),
  ]);
  const base = `/w/${owner.workspace.id}`;
  const now = requestTime();

  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-xl font-semibold">
          {agent.name} <span className="text-base font-normal text-slate-500">@{agent.handle}</span>
        </h2>
        <div className="flex gap-4 text-sm">
          <Link href={`${base}/settings/agents`} className="text-brand-700 underline-offset-4 hover:underline">
            All agents
          </Link>
          <Link href={`${base}/agents/${agent.handle}/memory`} className="text-brand-700 underline-offset-4 hover:underline">
            Open {agent.name}&apos;s memory
          </Link>
        </div>
      </div>

      <section aria-labelledby="keys-heading" className="flex flex-col gap-3">
        <h2 id="keys-heading" className="text-lg font-semibold">
          Keys
        </h2>
        <p className="text-sm text-slate-600">
          {agent.name} calls the API with a key: <code className="font-mono">Authorization: Bearer mnemo_…</code>. A key
          works for {agent.name} only. Give each place that runs it its own key, so you can revoke one alone.
        </p>
        <CreateKeyForm workspace={owner.workspace.id} agentId={agent.id} keys={keys} now={now} action={createKeyAction} />
        <KeyList workspace={owner.workspace.id} keys={keys} now={now} revoke={revokeKeyAction} />
      </section>

      {policies ? (
        <section className="rounded-lg border border-slate-200 bg-white p-4">
          <WritePoliciesForm
            workspace={owner.workspace.id}
            workspaceName={owner.workspace.name}
            agent={agent}
            policies={policies}
            action={setWritePoliciesAction}
          />
        </section>
      ) : null}

      <section className="rounded-lg border border-slate-200 bg-white p-4">
        <RenameAgentForm workspace={owner.workspace.id} agent={agent} action={renameAgentAction} />
      </section>

      <section className="rounded-lg border border-red-200 bg-white p-4">
        <DeleteAgent workspace={owner.workspace.id} agent={agent} action={deleteAgentAction} />
      </section>
    </div>
  );
}
