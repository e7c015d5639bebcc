import Link from "next/link";
import { ProposalCount } from "./proposal-count";
import { QuotaMeter } from "./quota-meter";

export function AgentCard({
  workspaceId,
  agent,
  proposals = 0,
}: {
  workspaceId: string;
  agent: { handle: string; name: string; facts: number };
  /** Proposals of this agent the person may decide (0: none shown). */
  proposals?: number;
}) {
  const memory = `/w/${workspaceId}/agents/${agent.handle}/memory`;
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-baseline justify-between gap-2">
        <div className="flex items-center gap-2">
          <h3 className="font-medium">{agent.name}</h3>
          <ProposalCount count={proposals} href={`${memory}#inbox`} />
        </div>
        <span className="text-xs text-slate-500">@{agent.handle}</span>
      </div>
      <QuotaMeter used={agent.facts} label={`${agent.name}'s memory`} />
      <Link href={memory} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
        Open {agent.name}&apos;s memory
      </Link>
    </li>
  );
}
