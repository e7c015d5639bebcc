"use client";

import { startTransition, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { AdminState, InviteState } from "@/lib/actions/admin-states";
import { FormProblem } from "./form-problem";
import { SecretReveal } from "./secret-reveal";
import { useAdminAction } from "./use-admin-action";

export type InviteView = { id: string; email: string; role: "owner" | "member"; expiresAt: string; expired: boolean };

type Actions = {
  renew: (data: FormData) => Promise<InviteState>;
  cancel: (data: FormData) => Promise<AdminState>;
};

/** An invitation not yet accepted: when it lapses, a new link (the old one stops working), and Cancel. */
export function InviteRow({ workspace, invite, actions }: { workspace: string; invite: InviteView; actions: Actions }) {
  const [renewState, renew, renewing] = useAdminAction(actions.renew);
  const [cancelState, cancel, cancelling] = useAdminAction(actions.cancel);
  const [confirming, setConfirming] = useState(false);

  function confirmCancel() {
    setConfirming(false);
    const data = new FormData();
    data.set("workspace", workspace);
    data.set("inviteId", invite.id);
    startTransition(() => cancel(data));
  }

  const until = new Date(invite.expiresAt).toLocaleDateString("en", { month: "short", day: "numeric" });
  return (
    <li className="flex flex-col gap-3 rounded-lg border border-dashed border-slate-300 bg-white p-4" aria-label={invite.email}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <div className="min-w-0">
          <p className="break-all font-medium">{invite.email}</p>
          <p className="text-sm text-slate-600">
            {invite.expired ? "Invited; the link has expired." : `Invited; the link works until ${until}.`}
          </p>
        </div>
        <span className="text-xs font-medium uppercase tracking-wide text-slate-500">{invite.role}</span>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <form action={renew}>
          <input type="hidden" name="workspace" value={workspace} />
          <input type="hidden" name="inviteId" value={invite.id} />
          <Button type="submit" variant="secondary" disabled={renewing}>
            New invite link
          </Button>
        </form>
        <Button type="button" variant="ghost" className="text-red-700" disabled={cancelling} onClick={() => setConfirming(true)}>
          Cancel invitation
        </Button>
      </div>
      {renewState.status === "invited" ? (
        <SecretReveal label={`Invite link for ${invite.email}`} value={`${window.location.origin}${renewState.link}`} warning={renewState.message} />
      ) : null}
      <FormProblem state={renewState} label="Invite problem" />
      <FormProblem state={cancelState} label="Cancel problem" />
      <ConfirmDialog
        open={confirming}
        title={`Cancel the invitation for ${invite.email}?`}
        confirmLabel="Cancel invitation"
        onConfirm={confirmCancel}
        onCancel={() => setConfirming(false)}
      >
        <p>Its link stops working at once. You can add them again later.</p>
      </ConfirmDialog>
    </li>
  );
}
