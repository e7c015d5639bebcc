import type { Metadata } from "next";
import { getDb } from "@/db";
import { AddPersonForm } from "@/components/settings/add-person-form";
import { InviteRow } from "@/components/settings/invite-row";
import { PersonRow } from "@/components/settings/person-row";
import { listInvites } from "@/lib/admin/invites";
import { listPeople } from "@/lib/admin/people";
import { requireOwner } from "@/lib/auth/session";
import { personFactCounts } from "@/lib/privacy/erase-person-facts";
import { addPersonAction, cancelInviteAction, changeRoleAction, removePersonAction, renewInviteAction } from "./actions";

export const metadata: Metadata = { title: "People" };

export default async function PeoplePage({ params }: { params: Promise<{ workspace: string }> }) {
  const { workspace } = await params;
  const owner = await requireOwner(workspace);
  const [people, invited, personFacts] = await Promise.all([
    listPeople(getDb(), owner.workspace.id),
    listInvites(getDb(), owner.workspace.id),
    personFactCounts(getDb(), owner.workspace.id),
  ]);
  const owners = people.filter((person) => person.role === "owner").length;

  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <section aria-labelledby="people-heading" className="flex min-w-0 flex-col gap-3 lg:col-span-2">
        <div>
          {/* Focusable from script: focus lands here when a removed person's row is gone. */}
          <h2 id="people-heading" tabIndex={-1} className="text-lg font-semibold">
            People ({people.length})
          </h2>
          <p className="text-sm text-slate-600">
            Owners manage these settings and the workspace facts. Nobody, owners included, sees facts kept just for
            someone else.
          </p>
        </div>
        <ul className="flex flex-col gap-3" aria-label="People">
          {people.map((person) => (
            <PersonRow
              key={person.id}
              workspace={owner.workspace.id}
              workspaceName={owner.workspace.name}
              person={{
                id: person.id,
                name: person.name,
                email: person.email,
                role: person.role,
                isYou: person.id === owner.id,
                lastOwner: person.role === "owner" && owners === 1,
                personFacts: personFacts.get(person.id) ?? 0,
              }}
              actions={{ changeRole: changeRoleAction, remove: removePersonAction }}
            />
          ))}
        </ul>
        {invited.length > 0 ? (
          <>
            <h2 id="invited-heading" className="mt-4 text-lg font-semibold">
              Invited ({invited.length})
            </h2>
            <p className="text-sm text-slate-600">Not in {owner.workspace.name} until they open their link and accept.</p>
            <ul className="flex flex-col gap-3" aria-labelledby="invited-heading">
              {invited.map((invite) => (
                <InviteRow
                  key={invite.id}
                  workspace={owner.workspace.id}
                  invite={invite}
                  actions={{ renew: renewInviteAction, cancel: cancelInviteAction }}
                />
              ))}
            </ul>
          </>
        ) : null}
      </section>
      <aside className="min-w-0">
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <AddPersonForm workspace={owner.workspace.id} action={addPersonAction} />
        </div>
      </aside>
    </div>
  );
}
