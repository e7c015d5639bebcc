import type { Metadata } from "next";
import { getDb } from "@/db";
import { ChannelCard } from "@/components/settings/channel-card";
import { CreateChannelForm } from "@/components/settings/create-channel-form";
import { listChannels } from "@/lib/admin/channels";
import { listPeople } from "@/lib/admin/people";
import { requireOwner } from "@/lib/auth/session";
import {
  addChannelMemberAction,
  createChannelAction,
  removeChannelMemberAction,
  renameChannelAction,
  setChannelKindAction,
} from "./actions";

export const metadata: Metadata = { title: "Channels" };

export default async function ChannelsPage({ params }: { params: Promise<{ workspace: string }> }) {
  const { workspace } = await params;
  const owner = await requireOwner(workspace);
  const db = getDb();
  const [channels, people] = await Promise.all([listChannels(db, owner.workspace.id), listPeople(db, owner.workspace.id)]);
  const members = people.map((p) => ({ id: p.id, name: p.name })).sort((a, b) => a.name.localeCompare(b.name));
  const actions = {
    rename: renameChannelAction,
    setKind: setChannelKindAction,
    addMember: addChannelMemberAction,
    removeMember: removeChannelMemberAction,
  };

  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <section aria-labelledby="channels-heading" className="flex min-w-0 flex-col gap-3 lg:col-span-2">
        <div>
          <h2 id="channels-heading" className="text-lg font-semibold">
            Channels ({channels.length})
          </h2>
          <p className="text-sm text-slate-600">
            A channel&apos;s facts are seen by whoever can read it, and recalled only in it. Agents name a channel by its
            id when they call the API.
          </p>
        </div>
        {channels.length === 0 ? <p className="text-sm text-slate-600">No channels yet.</p> : null}
        {channels.map((channel) => (
          <ChannelCard key={channel.id} workspace={owner.workspace.id} channel={channel} members={members} actions={actions} />
        ))}
      </section>
      <aside className="min-w-0">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <CreateChannelForm workspace={owner.workspace.id} action={createChannelAction} />
        </div>
      </aside>
    </div>
  );
}
