"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { acceptInviteAction, type AcceptInviteState } from "./actions";

export function AcceptInviteForm({ token, email }: { token: string; email: string }) {
  const [state, action, pending] = useActionState<AcceptInviteState, FormData>(acceptInviteAction, { status: "idle" });
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="token" value={token} />
      {/* Shown, and named for password managers: the account this password belongs to. */}
      <Field label="Email" id="email" name="username" type="email" autoComplete="username" value={email} readOnly />
      <Field
        label="Password"
        id="password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
        aria-describedby="password-hint"
      />
      <p id="password-hint" className="-mt-2 text-xs text-slate-500">
        At least 8 characters. A long phrase is easier to remember and harder to guess.
      </p>
      <Field label="Confirm password" id="confirm" name="confirm" type="password" autoComplete="new-password" required />
      {state.status !== "idle" ? (
        <p role="alert" aria-label="Invite problem" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.message}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? "Setting your password…" : "Set password and sign in"}
      </Button>
    </form>
  );
}
