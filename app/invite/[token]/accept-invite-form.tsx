"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { NewPasswordField } from "@/components/ui/new-password-field";
import { acceptInviteAction, answerInviteAction, type AcceptInviteState } from "./actions";

/** Someone new: the account's name and password. */
export function AcceptInviteForm({ token, email, name }: { token: string; email: string; name: string }) {
  const [state, action, pending] = useActionState<AcceptInviteState, FormData>(acceptInviteAction, { status: "idle" });
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="token" value={token} />
      {/* Shown, and named for password managers: the account this password belongs to. */}
      <Field label="Email" id="email" name="username" type="email" autoComplete="username" value={email} readOnly />
      <Field label="Your name" id="name" name="name" autoComplete="name" defaultValue={name} maxLength={80} required />
      <NewPasswordField />
      <Field label="Confirm password" id="confirm" name="confirm" type="password" autoComplete="new-password" required />
      {state.status !== "idle" ? (
        <p role="alert" aria-label="Invite problem" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.message}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? "Joining…" : "Create account and join"}
      </Button>
    </form>
  );
}

/** Someone signed in as the invited email: Join, or Decline. */
export function AnswerInviteForm({ token, workspaceName }: { token: string; workspaceName: string }) {
  const [state, action, pending] = useActionState(
    (_previous: AcceptInviteState, formData: FormData) => answerInviteAction(formData) as Promise<AcceptInviteState>,
    { status: "idle" },
  );
  return (
    <form action={action} className="flex flex-col gap-4">
      <input type="hidden" name="token" value={token} />
      {state.status !== "idle" ? (
        <p role="alert" aria-label="Invite problem" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.message}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" name="answer" value="join" disabled={pending}>
          Join {workspaceName}
        </Button>
        <Button type="submit" name="answer" value="decline" variant="secondary" disabled={pending}>
          Decline
        </Button>
      </div>
    </form>
  );
}
