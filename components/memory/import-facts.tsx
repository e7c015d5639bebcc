"use client";

import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import type { ImportIntent, ImportState, ImportSummary } from "@/lib/memory/import-answer";
import { IMPORT_TOO_LARGE, MAX_IMPORT_BYTES } from "@/lib/validation/fields";

type Props = {
  workspace: string;
  agent: string;
  agentName: string;
};

/** Anything but the route's JSON answer: a lost connection, a server error, or a redirect to sign-in. */
const NOT_SENT: ImportState = { status: "failed", message: "The file could not be sent. Reload the page and try again." };

/**
 * Sends the file to the import route (…/memory/import, beside this page) and
 * reads its answer. Not a server action: the file may be 5 MB, and actions
 * keep Next's 1 MB limit.
 */
async function sendFile(workspace: string, agent: string, intent: ImportIntent, file: File): Promise<ImportState> {
  // The route refuses it too, but only after the upload: say so before sending megabytes for nothing.
  if (file.size > MAX_IMPORT_BYTES) return { status: "invalid_data", message: IMPORT_TOO_LARGE };
  const url = `/w/${encodeURIComponent(workspace)}/agents/${encodeURIComponent(agent)}/memory/import?intent=${intent}`;
  try {
    // Never follow a redirect: it would carry the file somewhere else.
    const response = await fetch(url, { method: "POST", body: file, headers: { "content-type": "application/json" }, redirect: "manual" });
    if (!response.headers.get("content-type")?.includes("application/json")) return NOT_SENT;
    return (await response.json()) as ImportState;
  } catch {
    return NOT_SENT;
  }
}

/**
 * Owners only: add the workspace facts of a facts file. "Check file" is a dry
 * run that changes nothing; only then is "Import N facts" offered. The file is
 * kept in state (not in a form) so the import sends the very file that was checked.
 */
export function ImportFacts({ workspace, agent, agentName }: Props) {
  const router = useRouter();
  const [file, setFile] = useState<File | null>(null);
  const [state, setState] = useState<ImportState>({ status: "idle" });
  const [pending, startTransition] = useTransition();
  const [sending, setSending] = useState<"check" | "import" | null>(null);
  const inputId = useId();

  function send(intent: ImportIntent) {
    if (!file) return;
    setSending(intent);
    startTransition(async () => {
      const answer = await sendFile(workspace, agent, intent, file);
      setState(answer);
      // The new facts are on this page: fetch it again, as a server action's revalidation would have.
      if (answer.status === "imported") router.refresh();
    });
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
      {summary.instructionLike.length ? (
        <ul className="list-disc pl-5 text-amber-800" aria-label="Items that read like instructions">
          {summary.instructionLike.map((problem) => (
            <li key={problem.item}>
              Item {problem.item} reads like {problem.reason}.
            </li>
          ))}
          {summary.instructionLikeCount > summary.instructionLike.length ? (
            <li>…and {summary.instructionLikeCount - summary.instructionLike.length} more.</li>
          ) : null}
        </ul>
      ) : null}
    </>
  );
}
