"use client";

import { useActionState, useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { NewPasswordField } from "@/components/ui/new-password-field";
import { submitWith } from "@/components/you/submit-with";
import { createAccountAction, type SignUpState } from "./actions";

/** The first account (with its workspace), or an account on an open sign-up. */
export function SignUpForm({ kind }: { kind: "first" | "account" }) {
  const [state, action, pending] = useActionState<SignUpState, FormData>(createAccountAction, { status: "idle" });
  const fields = state.status === "failed" ? state.fields : { name: "", email: "", workspaceName: "" };
  const problem = (field: string) => (state.status === "failed" && state.field === field ? state.message : undefined);
  const form = useRef<HTMLFormElement>(null);
  // A refused field takes focus, so its message is heard with it.
  useEffect(() => {
    if (state.status === "failed" && state.field) form.current?.querySelector<HTMLElement>(`[name="${state.field}"]`)?.focus();
  }, [state]);
  return (
    // onSubmit, not action: React's reset after an action emptied the password (and put the message under the wrong field).
    <form ref={form} onSubmit={submitWith(action)} className="flex flex-col gap-4" noValidate>
      <input type="hidden" name="kind" value={kind} />
      <Field label="Your name" id="name" name="name" autoComplete="name" required defaultValue={fields.name} error={problem("name")} />
      <Field label="Email" id="email" name="email" type="email" autoComplete="email" required defaultValue={fields.email} error={problem("email")} />
      <NewPasswordField error={problem("password")} />
      {kind === "first" ? (
        <Field
          label="Workspace name"
          id="workspaceName"
          name="workspaceName"
          required
          placeholder="Your team or company"
          defaultValue={fields.workspaceName}
          error={problem("workspaceName")}
        />
      ) : null}
      {state.status === "failed" && !state.field ? (
        <p role="alert" aria-label="Sign-up problem" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
          {state.message}
        </p>
      ) : null}
      <Button type="submit" disabled={pending} aria-busy={pending}>
        {pending ? "Creating…" : kind === "first" ? "Create account and workspace" : "Create account"}
      </Button>
    </form>
  );
}
