import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/db";
import { openInvite } from "@/lib/admin/invites";
import { inviteToken } from "@/lib/validation/admin";
import { AcceptInviteForm } from "./accept-invite-form";
import { INVITE_UNUSABLE } from "./messages";

export const metadata: Metadata = { title: "Join a workspace", referrer: "no-referrer" };

/** A public page: the invite link itself is the credential. Unknown, used and expired links read the same. */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = inviteToken.safeParse(token).success ? await openInvite(getDb(), token) : null;

  return (
    <main className="mx-auto flex min-h-dvh max-w-sm flex-col justify-center gap-8 px-6 py-12">
      <div className="flex flex-col gap-2">
        <p className="text-lg font-semibold text-brand-700">Mnemo</p>
        <h1 className="text-2xl font-semibold tracking-tight">{invite ? `Join ${invite.workspaceName}` : "This link doesn't work"}</h1>
        {invite ? (
          <p className="text-sm text-slate-600">
            Welcome, {invite.name}. Choose a password for <span className="font-medium">{invite.email}</span>; you sign
            in with it from now on.
          </p>
        ) : (
          <p className="text-sm text-slate-600">{INVITE_UNUSABLE}</p>
        )}
      </div>
      {invite ? (
        <AcceptInviteForm token={token} email={invite.email} />
      ) : (
        <Link href="/signin" className="text-brand-700 underline underline-offset-4">
          Go to sign in
        </Link>
      )}
    </main>
  );
}
