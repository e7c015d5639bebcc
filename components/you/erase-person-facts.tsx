"use client";

/**
 * "Erase what agents keep just for me": a dry run first (how many facts, per
 * agent), then one confirmation that removes them at once. The choice of place
 * is controlled, so it survives a refusal; focus moves to each new answer.
 */
import { useActionState, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import type { EraseState, WorkspaceNamed } from "@/lib/actions/your-data-states";
import { submitWith } from "./submit-with";

const facts = (n: number) => `${n} ${n === 1 ? "fact" : "facts"}`;

export function ErasePersonFacts({
  workspaces,
  action,
}: {
  workspaces: WorkspaceNamed[];
  action: (data: FormData) => Promise<EraseState>;
}) {
  const [state, run, pending] = useActionState<EraseState, FormData>((_previous, data) => action(data), { status: "idle" });
  const [workspace, setWorkspace] = useState("");
  const id = useId();
  const answerRef = useRef<HTMLDivElement>(null);
  const place = (ws: string) => (ws ? (workspaces.find((w) => w.id === ws)?.name ?? ws) : "every workspace");

  // Focus follows the work: to the dry run's answer, the result, or the refusal.
  useEffect(() => {
    if (state.status !== "idle") answerRef.current?.focus();
  }, [state]);

  return (
    <form onSubmit={submitWith(run)} className="flex flex-col gap-3" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        Erase what agents keep just for me
      </h2>
      <p className="text-sm text-slate-600">
        Facts kept just for you are recalled only in your direct messages with an agent. Erasing removes them and their
        history at once, for good: they do not wait in Recently forgotten.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <Select
          label="Where"
          id={`${id}-where`}
          name="workspace"
          value={workspace}
          onChange={(event) => setWorkspace(event.target.value)}
          aria-invalid={state.status === "invalid_data" ? true : undefined}
          aria-describedby={state.status === "invalid_data" ? `${id}-answer` : undefined}
        >
          <option value="">Every workspace</option>
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </Select>
        <Button type="submit" name="confirm" value="0" variant="secondary" disabled={pending}>
          Check what would be erased
        </Button>
      </div>
      <div ref={answerRef} id={`${id}-answer`} tabIndex={-1} className="outline-none" aria-live="polite">
        {/* A preview is for the place it was asked for: choosing another asks again. */}
        {state.status === "preview" && state.workspace === workspace ? (
          state.total === 0 ? (
            <p className="text-sm text-slate-700">No agent keeps anything just for you in {place(state.workspace)}.</p>
          ) : (
            <div className="flex flex-col gap-3 rounded-md bg-amber-50 p-3 ring-1 ring-amber-200">
              <p className="text-sm font-medium">
                Erasing removes {facts(state.total)} kept just for you in {place(state.workspace)}:
              </p>
              <ul className="list-disc pl-5 text-sm" aria-label="Facts to erase, per agent">
                {state.agents.map((a) => (
                  <li key={`${a.workspace}/${a.agent}`}>
                    {a.agent} in {a.workspace}: {facts(a.count)}
                  </li>
                ))}
              </ul>
              <div>
                <Button type="submit" name="confirm" value="1" variant="danger" disabled={pending}>
                  Erase {facts(state.total)} now
                </Button>
              </div>
            </div>
          )
        ) : null}
        {state.status === "success" ? (
          <p className="text-sm font-medium text-green-800">
            {state.message}
          </p>
        ) : null}
        {state.status === "failed" || state.status === "invalid_data" ? (
          <p role="alert" className="text-sm text-red-700">
            {state.message}
          </p>
        ) : null}
      </div>
    </form>
  );
}
