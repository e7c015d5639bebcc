"use client";

import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { signInWithPassword, type SignInState } from "./actions";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInWithPassword, {
    status: "idle",
  });
  const failed = state.status === "failed";
  return (
    <form action={action} className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field
        label="Email"
        id="email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={failed ? state.email : ""}
      />
      <Field label="Password" id="password" name="password" type="password" autoComplete="current-password" required />
      {failed ? (
        <p role="alert" aria-label="Sign-in problem" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.message}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
