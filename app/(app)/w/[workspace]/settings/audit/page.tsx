import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db";
import { RelativeTime } from "@/components/ui/relative-time";
import { listAudit } from "@/lib/admin/audit";
import { requireOwner } from "@/lib/auth/session";
import { requestTime } from "@/lib/ids";
import { firstValues } from "@/lib/validation/memory";
import { auditPageParams } from "@/lib/validation/admin";

export const metadata: Metadata = { title: "Audit list" };

const PAGE = 50;

/** How each recorded action reads; an action recorded by a newer version shows as its machine name. */
const ACTIONS: Record<string, string> = {
  "workspace.create": "Started the workspace",
  "member.add": "Added a person",
  "member.invite": "Invited a person",
  "invite.renew": "Made a new invite link",
  "invite.accept": "Accepted the invite",
  "invite.decline": "Declined the invite",
  "invite.cancel": "Cancelled an invite",
  "member.role": "Changed a role",
  "member.remove": "Removed a person",
  "channel.create": "Created a channel",
  "channel.rename": "Renamed a channel",
  "channel.kind": "Changed a channel's kind",
  "channel.member.add": "Added a person to a channel",
  "channel.member.remove": "Took a person out of a channel",
  "agent.create": "Created an agent",
  "agent.rename": "Renamed an agent",
  "agent.delete": "Deleted an agent",
  "agent.write_policies": "Changed what waits for a person",
  "key.create": "Created a key",
  "key.revoke": "Revoked a key",
  "webhook.add": "Added a webhook endpoint",
  "webhook.enable": "Turned a webhook endpoint on",
  "webhook.disable": "Turned a webhook endpoint off",
  "webhook.delete": "Deleted a webhook endpoint",
};

export default async function AuditPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspace: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { workspace } = await params;
  const owner = await requireOwner(workspace);
  const { before } = auditPageParams.parse(firstValues(await searchParams));
  const rows = await listAudit(getDb(), owner.workspace.id, PAGE + 1, before);
  const events = rows.slice(0, PAGE);
  const base = `/w/${owner.workspace.id}/settings/audit`;
  const now = requestTime();

  return (
    <section aria-labelledby="audit-heading" className="flex flex-col gap-3">
      <div>
        <h2 id="audit-heading" className="text-lg font-semibold">
          Audit list
        </h2>
        <p className="text-sm text-slate-600">
          Every change to people, channels, agents and keys: who made it and when, newest first. It never holds the text
          of a fact.
        </p>
      </div>
      {events.length === 0 ? <p className="text-sm text-slate-600">Nothing here yet.</p> : null}
      <ol className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Audit events">
        {events.map((event) => (
          <li key={event.id} className="flex flex-col gap-1 p-3 text-sm sm:flex-row sm:items-baseline sm:gap-4">
            <span className="shrink-0 text-slate-500 sm:w-32">
              <RelativeTime iso={event.at} now={now} />
            </span>
            <span className="min-w-0 flex-1">
              <span className="font-medium">{event.actorName}</span> · {ACTIONS[event.action] ?? event.action}
              <span className="block break-words text-slate-700">{event.summary}</span>
            </span>
          </li>
        ))}
      </ol>
      <div className="flex gap-4 text-sm">
        {before ? (
          <Link href={base} className="font-medium text-brand-700 underline-offset-4 hover:underline">
            Newest
          </Link>
        ) : null}
        {rows.length > PAGE ? (
          <Link
            href={`${base}?before=${events[events.length - 1].id}`}
            className="font-medium text-brand-700 underline-offset-4 hover:underline"
          >
            Older
          </Link>
        ) : null}
      </div>
    </section>
  );
}
