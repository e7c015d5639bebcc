"use client";

import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import type { ImportState, ImportSummary } from "@/lib/actions/import-states";

type Props = {
  workspace: string;
  agent: string;
  agentName: string;
  action: (input: FormData) => Promise<ImportState>;
};

/**
 * Owners only: add the workspace facts of a facts file. "Check file" is a dry
 * run that changes nothing; only then is "Import N facts" offered. The file is
 * kept in state (not in a form action) because React resets a form after its
 * action, and the import must send the very file that was checked.
 */
export function ImportFacts({ workspace, agent, agentName, action }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<ImportState>({ status: "idle" });
  const [pending, startTransition] = useTransition();
  const [sending, setSending] = useState<"check" | "import" | null>(null);
  const inputId = useId();

  function send(intent: "check" | "import") {
    if (!file) return;
    setSending(intent);
    const data = new FormData();
    data.set("workspace", workspace);
    data.set("agent", agent);
    data.set("intent", intent);
    data.set("file", file);
    startTransition(async () => setState(await action(data)));
  }

  return (
    <section aria-labelledby="import-heading" className="flex flex-col gap-3">
      <h2 id="import-heading" className="text-lg font-semibold">
        Import workspace facts
      </h2>
      <p className="text-sm text-slate-600">
        From a file made by &ldquo;Download as JSON&rdquo;. Only workspace facts are imported, as facts you told{" "}
        {agentName}, pinned. Duplicates are skipped. Nothing changes until you confirm.
      </p>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
          Facts file (JSON)
        </label>
        <input
          id={inputId}
          type="file"
          accept="application/json,.json"
          className="text-sm"
          onChange={(event) => {
            setFile(event.target.files?.[0] ?? null);
            setState({ status: "idle" });
          }}
        />
      </div>
      <div>
        <Button type="button" variant="secondary" disabled={!file || pending} onClick={() => send("check")}>
          {pending && sending === "check" ? "Checking…" : "Check file"}
        </Button>
      </div>
      <ImportResult state={state} />
      {state.status === "checked" && state.canImport ? (
        <div>
          <Button type="button" disabled={pending} aria-busy={pending} onClick={() => send("import")}>
            {pending && sending === "import" ? "Importing…" : `Import ${state.summary.toAdd} ${state.summary.toAdd === 1 ? "fact" : "facts"}`}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

function ImportResult({ state }: { state: ImportState }) {
  if (state.status === "idle") return null;
  const summary = state.summary;
  const ok = state.status === "imported" || (state.status === "checked" && state.canImport);
  return (
    <div className="flex flex-col gap-2 text-sm" aria-label="Import result">
      {summary ? <Counts summary={summary} done={state.status === "imported"} /> : null}
      <p role={ok ? "status" : "alert"} className={ok ? "text-green-800" : "text-red-700"}>
        {state.message}
      </p>
    </div>
  );
}

function Counts({ summary, done }: { summary: ImportSummary; done: boolean }) {
  const n = (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "fact" : "facts"}`;
  return (
    <>
      <ul className="list-disc pl-5 text-slate-700">
        <li>{done ? `Added ${n(summary.toAdd)}` : `Would add ${n(summary.toAdd)}`}</li>
        <li>Skip {n(summary.duplicates)} already known (duplicates)</li>
        {summary.otherScopes ? <li>Skip {n(summary.otherScopes)} of channels or people (only workspace facts are imported)</li> : null}
        <li>Refuse {n(summary.refusedCount)}</li>
      </ul>
      {summary.refused.length ? (
        <ul className="list-disc pl-5 text-red-700" aria-label="Refused items">
          {summary.refused.map((problem) => (
            <li key={problem.item}>
              Item {problem.item}: {problem.reason}.
            </li>
          ))}
          {summary.refusedCount > summary.refused.length ? (
            <li>…and {summary.refusedCount - summary.refused.length} more.</li>
          ) : null}
        </ul>
      ) : null}
    </>
  );
}
