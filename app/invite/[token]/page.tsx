import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { getDb } from "@/db";
import { openInvite, type OpenInvite } from "@/lib/admin/invites";
import { currentUser } from "@/lib/auth/session";
import { inviteToken } from "@/lib/validation/admin";
import { signOutAction } from "@/app/(app)/actions";
import { AcceptInviteForm, AnswerInviteForm } from "./accept-invite-form";
import { INVITE_UNUSABLE } from "./messages";

export const metadata: Metadata = { title: "Join a workspace", referrer: "no-referrer" };

const asRole = (role: OpenInvite["role"]) => (role === "owner" ? "an owner" : "a member");

/**
 * A public page: the invite link itself is the credential. Unknown, used and
 * expired links read the same. What it offers depends on who opens it (see
 * `openInvite`); it never offers to set the password of an account that exists.
 */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const user = await currentUser();
  const invite = inviteToken.safeParse(token).success ? await openInvite(getDb(), token, user) : null;

  return (
    <main className="mx-auto flex min-h-dvh max-w-sm flex-col justify-center gap-8 px-6 py-12">
      <div className="flex flex-col gap-2">
        <p className="text-lg font-semibold text-brand-700">Mnemo</p>
        <h1 className="text-2xl font-semibold tracking-tight">{invite ? `Join ${invite.workspaceName}` : "This link doesn't work"}</h1>
        {invite ? (
          <p className="text-sm text-slate-600">
            <span className="font-medium">{invite.email}</span> is invited to {invite.workspaceName} as {asRole(invite.role)}.
          </p>
        ) : (
          <p className="text-sm text-slate-600">{INVITE_UNUSABLE}</p>
        )}
      </div>
      {invite ? <Next invite={invite} token={token} signedInAs={user?.email ?? null} /> : (
        <Link href="/signin" className="text-brand-700 underline underline-offset-4">
          Go to sign in
        </Link>
      )}
    </main>
  );
}

function Next({ invite, token, signedInAs }: { invite: OpenInvite; token: string; signedInAs: string | null }) {
  switch (invite.next) {
    case "join":
      return <AnswerInviteForm token={token} workspaceName={invite.workspaceName} />;
    case "other_account":
      return (
        <div className="flex flex-col gap-4 text-sm text-slate-700">
          <p>
            You are signed in as <span className="font-medium">{signedInAs}</span>. This invitation is for{" "}
            <span className="font-medium">{invite.email}</span>: sign out, then open this link again.
          </p>
          <form action={signOutAction}>
            <Button type="submit" variant="secondary">
              Sign out
            </Button>
          </form>
        </div>
      );
    case "sign_in":
      return (
        <p className="text-sm text-slate-700">
          <Link href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`} className="font-medium text-brand-700 underline underline-offset-4">
            Sign in as {invite.email}
          </Link>{" "}
          to join.
        </p>
      );
    case "create_account":
      return (
        <>
          <p className="-mt-4 text-sm text-slate-600">Choose your name and a password; you sign in with them from now on.</p>
          <AcceptInviteForm token={token} email={invite.email} name={invite.name ?? ""} />
        </>
      );
  }
}
