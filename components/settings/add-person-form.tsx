"use client";

import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import type { InviteState } from "@/lib/actions/admin-states";
import { submitWith } from "@/components/you/submit-with";
import { problemFor, useFocusRefusedField } from "./field-problem";
import { FormProblem } from "./form-problem";
import { SecretReveal } from "./secret-reveal";
import { useAdminAction } from "./use-admin-action";

/** Add a person by email: always an invite link to pass on; they join when they accept it. */
export function AddPersonForm({ workspace, action }: { workspace: string; action: (data: FormData) => Promise<InviteState> }) {
  const [state, submit, pending] = useAdminAction(action);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state.status === "success" || state.status === "invited") form.current?.reset();
  }, [state]);
  useFocusRefusedField(state, form);

  return (
    <div className="flex flex-col gap-4">
      <form ref={form} onSubmit={submitWith(submit)} className="flex flex-col gap-4" aria-labelledby="add-person-heading">
        <h2 id="add-person-heading" className="text-lg font-semibold">
          Add a person
        </h2>
        <input type="hidden" name="workspace" value={workspace} />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Email" id="person-email" name="email" type="email" autoComplete="off" required error={problemFor(state, "email")} />
          <Field label="Name (optional)" id="person-name" name="name" autoComplete="off" maxLength={80} error={problemFor(state, "name")} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          <Select label="Role" id="person-role" name="role" defaultValue="member">
            <option value="member">Member</option>
            <option value="owner">Owner</option>
          </Select>
        </div>
        <p className="text-xs text-slate-500">
          You get a link to pass on. They join when they open it: signed in with their Mnemo account if they have
          one, or by choosing a password.
        </p>
        <FormProblem state={state} label="Add person problem" fields={["email", "name"]} />
        <div>
          <Button type="submit" disabled={pending}>
            {pending ? "Adding…" : "Add person"}
          </Button>
        </div>
      </form>
      {state.status === "invited" ? (
        <SecretReveal label="Invite link" value={`${window.location.origin}${state.link}`} warning={state.message} />
      ) : null}
    </div>
  );
}
