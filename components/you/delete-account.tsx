"use client";

/**
 * "Delete my account": a dry run says what happens, in counts; a workspace the
 * person alone is in must have its name typed; a workspace they are the last
 * owner of, with others in it, stops everything until someone else owns it.
 * Typed names are controlled, so a refusal keeps them, with the error on the field.
 * Success never comes back here: the action signs the browser out.
 */
import Link from "next/link";
import { useActionState, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import type { DeleteAccountPreview, DeleteAccountState } from "@/lib/actions/your-data-states";
import { confirmNameField } from "@/lib/validation/fields";
import { submitWith } from "./submit-with";

const facts = (n: number) => `${n} ${n === 1 ? "fact" : "facts"}`;
const events = (n: number) => `${n} ${n === 1 ? "event" : "events"}`;

export function DeleteAccount({ action }: { action: (data: FormData) => Promise<DeleteAccountState> }) {
  const [state, run, pending] = useActionState<DeleteAccountState, FormData>((_previous, data) => action(data), {
    status: "idle",
  });
  const [typed, setTyped] = useState<Record<string, string>>({});
  const id = useId();
  const answerRef = useRef<HTMLDivElement>(null);
  const preview: DeleteAccountPreview | null = "personFacts" in state ? state : null;
  const wrongNames = "wrongNames" in state ? state.wrongNames : [];

  // Focus follows the work: to a wrong name's field, else to the answer.
  useEffect(() => {
    if (state.status === "idle") return;
    const firstWrong = "wrongNames" in state ? state.wrongNames[0] : undefined;
    const wrong = firstWrong ? document.getElementById(`${id}-${firstWrong}`) : null;
    (wrong ?? answerRef.current)?.focus();
  }, [state, id]);

  return (
    <form onSubmit={submitWith(run)} className="flex flex-col gap-3" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        Delete my account
      </h2>
      <p className="text-sm text-slate-600">First see what deleting does; nothing changes until you confirm.</p>
      <div>
        <Button type="submit" name="confirm" value="0" variant="secondary" disabled={pending}>
          See what deleting my account does
        </Button>
      </div>
      <div ref={answerRef} id={`${id}-answer`} tabIndex={-1} className="flex flex-col gap-3 outline-none" aria-live="polite">
        {"message" in state && !preview ? (
          <p role="alert" className="text-sm text-red-700">
            {state.message}
          </p>
        ) : null}
        {preview ? (
          <div className="flex flex-col gap-3 rounded-md bg-red-50 p-3 ring-1 ring-red-200">
            <p className="text-sm font-medium">Deleting your account:</p>
            <ul className="list-disc pl-5 text-sm" aria-label="What deleting your account does">
              <li>erases the {facts(preview.personFacts)} agents keep just for you, with their history;</li>
              <li>ends every session of yours, on every device;</li>
              <li>
                replaces your name with &ldquo;a former member&rdquo; on {facts(preview.renamedFacts)} from you and on{" "}
                {events(preview.renamedEvents)} of history;
              </li>
              <li>leaves the {facts(preview.toldFactsStay)} you told your workspaces with them.</li>
              {preview.soloWorkspaces.map((w) => (
                <li key={w.id}>deletes {w.name}, where you are the only person, with everything in it.</li>
              ))}
            </ul>
            {preview.lastOwnerOf.length > 0 ? (
              <div role="alert" className="flex flex-col gap-1 text-sm text-red-800">
                <p>
                  You are the last owner of {preview.lastOwnerOf.map((w) => w.name).join(", ")}, where others remain.
                  Make someone else an owner there first, then come back:
                </p>
                <ul className="list-disc pl-5">
                  {preview.lastOwnerOf.map((w) => (
                    <li key={w.id}>
                      <Link href={`/w/${w.id}/settings`} className="font-medium underline">
                        People in {w.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            ) : (
              <>
                {preview.soloWorkspaces.map((w) => (
                  <Field
                    key={w.id}
                    id={`${id}-${w.id}`}
                    label={`Type ${w.name} to delete it with your account`}
                    name={confirmNameField(w.id)}
                    value={typed[w.id] ?? ""}
                    onChange={(event) => setTyped((all) => ({ ...all, [w.id]: event.target.value }))}
                    autoComplete="off"
                    error={wrongNames.includes(w.id) ? `That is not ${w.name}. Type its name exactly.` : undefined}
                  />
                ))}
                {state.status === "failed" ? (
                  <p role="alert" className="text-sm text-red-700">
                    {state.message}
                  </p>
                ) : null}
                <div>
                  <Button type="submit" name="confirm" value="1" variant="danger" disabled={pending}>
                    Delete my account
                  </Button>
                </div>
              </>
            )}
          </div>
        ) : null}
      </div>
    </form>
  );
}
