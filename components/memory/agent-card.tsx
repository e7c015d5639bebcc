import Link from "next/link";
import { QuotaMeter } from "./quota-meter";

export function AgentCard({
  workspaceId,
  agent,
}: {
  workspaceId: string;
  agent: { handle: string; name: string; facts: number };
}) {
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="font-medium">{agent.name}</h3>
        <span className="text-xs text-slate-500">@{agent.handle}</span>
      </div>
      <QuotaMeter used={agent.facts} label={`${agent.name}'s memory`} />
      <Link
        href={`/w/${workspaceId}/agents/${agent.handle}/memory`}
        className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
      >
        Open {agent.name}&apos;s memory
      </Link>
    </li>
  );
}
