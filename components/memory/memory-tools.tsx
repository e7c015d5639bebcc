import { AddFactForm } from "./add-fact-form";
import { ImportFacts } from "./import-facts";
import { RecallPreview, type PreviewResult } from "./recall-preview";

type Place = { id: string; label: string };

/** The Memory page's side column: add a fact, import (owners only), and preview a recall. */
export function MemoryTools({
  workspace,
  agent,
  agentName,
  isOwner,
  workspaceName,
  hasOwnDm,
  channels,
  places,
  pagePath,
  selectedPlace,
  previewQuestion,
  previewBudget,
  keep,
  preview,
}: {
  workspace: string;
  /** The agent's handle. */
  agent: string;
  agentName: string;
  isOwner: boolean;
  workspaceName: string;
  /** Whether the member has a DM of their own, where Just you facts are recalled. */
  hasOwnDm: boolean;
  /** Where the member can keep a channel fact. */
  channels: Place[];
  /** Where the member can preview a recall. */
  places: Place[];
  pagePath: string;
  selectedPlace: string | undefined;
  /** The preview's question and budget as typed. */
  previewQuestion: string | undefined;
  previewBudget: string | undefined;
  keep: Record<string, string>;
  preview: PreviewResult;
}) {
  return (
    <aside className="flex min-w-0 flex-col gap-8">
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <AddFactForm channels={channels} canWriteWorkspace={isOwner} workspaceName={workspaceName} hasOwnDm={hasOwnDm} />
      </div>
      {isOwner ? (
        <div className="rounded-lg border border-slate-200 bg-white p-4">
          <ImportFacts workspace={workspace} agent={agent} agentName={agentName} />
        </div>
      ) : null}
      <div className="rounded-lg border border-slate-200 bg-white p-4">
        <RecallPreview
          action={pagePath}
          agentName={agentName}
          places={places}
          selected={selectedPlace}
          question={previewQuestion}
          budget={previewBudget}
          keep={keep}
          result={preview}
        />
      </div>
    </aside>
  );
}
