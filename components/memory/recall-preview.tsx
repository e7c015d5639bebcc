import { Button } from "@/components/ui/button";
import { UrlForm } from "@/components/ui/url-form";
import type { Ranking } from "@/lib/validation/agent-api";

/** Why a fact is where it is: the `why` of recall's answer (lib/memory/ranking.ts). */
export type PreviewReceipt = { pinned: boolean; score: number | null; matched: string[] };
export type PreviewFact = { id: string; body: string; why: PreviewReceipt & { rank: number } };
export type LeftOutFact = { id: string; body: string; why: PreviewReceipt; reason: "limit" | "budget" };

export type PreviewResult =
  | { status: "none" }
  | { status: "refused" }
  | { status: "invalid"; errors: { question?: string; budget?: string } }
  | {
      status: "ok";
      placeLabel: string;
      ranking: Ranking;
      /** Facts that apply here: what the ranking chose from. */
      considered: number;
      tokens: number;
      limit: number;
      budget: number | null;
      facts: PreviewFact[];
      leftOut: LeftOutFact[];
      section: string | null;
    };

const RANKING_WORDS: Record<Ranking, string> = {
  question: "By the question (words and meaning)",
  "question (words only)": "By the question (words only)",
  recency: "Newest first (no question)",
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** "“refund”, “approval” and by meaning": the question's words a fact matched, in plain words. */
function matchedWords(matched: string[]): string {
  const words = matched.filter((m) => m !== "meaning").map((word) => `“${word}”`);
  const parts = matched.includes("meaning") ? [...words, "by meaning"] : words;
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** One fact's receipt as a sentence: pinned, rank, what it matched, its score. */
function receiptWords(why: PreviewReceipt & { rank?: number }, ranking: Ranking): string {
  const parts: string[] = [];
  if (why.rank !== undefined) parts.push(`Rank ${why.rank}`);
  if (why.pinned) parts.push("pinned");
  if (ranking !== "recency") parts.push(why.matched.length ? `matched ${matchedWords(why.matched)}` : "matched nothing in the question");
  if (why.score !== null) parts.push(`score ${why.score}`);
  const text = parts.join(" · ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Why a fact that applies here was left out, then its receipt. */
function leftOutWords(fact: LeftOutFact, result: { limit: number; budget: number | null; ranking: Ranking }): string {
  const reason =
    fact.reason === "limit"
      ? `Past the limit of ${result.limit}`
      : `Did not fit the budget of ${plural(result.budget ?? 0, "token", "tokens")}`;
  const receipt = receiptWords(fact.why, result.ranking);
  return receipt ? `${reason}. ${receipt}` : reason;
}

const fieldClass =
  "rounded-md border border-slate-300 bg-white px-3 text-base shadow-sm focus:border-brand-600 aria-[invalid=true]:border-red-600 sm:text-sm";

/**
 * "What would the agent get there?": pick a place you are in, optionally the question
 * the agent is asked and a token budget, and see the facts recall returns there in
 * order, each with its receipt, the facts left out and why, and the prompt section.
 */
export function RecallPreview({
  agentName,
  places,
  selected,
  question,
  budget,
  keep,
  result,
  action,
}: {
  /** The Memory page's path. */
  action: string;
  agentName: string;
  places: { id: string; label: string }[];
  selected: string | undefined;
  /** The question and budget as typed, kept in the fields whether or not they were valid. */
  question: string | undefined;
  budget: string | undefined;
  /** The page's other URL parameters, kept as they are. */
  keep: Record<string, string>;
  result: PreviewResult;
}) {
  const errors = result.status === "invalid" ? result.errors : {};
  const questionHelp = ["preview-question-hint", errors.question ? "preview-question-error" : ""].filter(Boolean).join(" ");
  const budgetHelp = ["preview-budget-hint", errors.budget ? "preview-budget-error" : ""].filter(Boolean).join(" ");

  const unlisted = result.status === "ok" ? result.considered - result.facts.length - result.leftOut.length : 0;
  let announcement = "";
  if (result.status === "ok") {
    announcement = `In ${result.placeLabel}, ${agentName} would recall ${result.facts.length} of ${plural(
      result.considered,
      "fact that applies",
      "facts that apply",
    )} here. ${RANKING_WORDS[result.ranking]}; ${plural(result.tokens, "token", "tokens")}.`;
  } else if (result.status === "invalid") {
    announcement = `Nothing previewed: ${[errors.question, errors.budget].filter(Boolean).join(" ")}`;
  }

  return (
    <section aria-labelledby="preview-heading" className="flex flex-col gap-3">
      {/* Focusable from script: focus comes back here with each preview, not to the page's top. */}
      <h2 id="preview-heading" tabIndex={-1} className="text-lg font-semibold">
        Preview recall
      </h2>
      <UrlForm
        // New fields for a new URL: after back and forward they show what that preview was asked.
        key={JSON.stringify([selected, question, budget])}
        action={action}
        focusAfter="#preview-heading"
        aria-label="Preview recall"
        className="flex flex-col gap-3"
      >
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <div className="flex flex-col gap-1.5">
          <label htmlFor="preview-place" className="text-sm font-medium text-slate-800">
            Place
          </label>
          <select
            id="preview-place"
            name="preview"
            defaultValue={selected ?? places[0]?.id}
            className="min-h-10 rounded-md border border-slate-300 bg-white px-2 text-sm"
          >
            {places.map((place) => (
              <option key={place.id} value={place.id}>
                {place.label}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="preview-question" className="text-sm font-medium text-slate-800">
            What is the agent asked?
          </label>
          <textarea
            id="preview-question"
            name="preview_q"
            rows={2}
            defaultValue={question ?? ""}
            aria-invalid={errors.question ? true : undefined}
            aria-describedby={questionHelp}
            className={`${fieldClass} py-2`}
          />
          <p id="preview-question-hint" className="text-xs text-slate-600">
            Optional, up to 2,000 characters. Without a question, the newest facts come first.
          </p>
          {errors.question ? (
            <p id="preview-question-error" className="text-sm text-red-700">
              {errors.question}
            </p>
          ) : null}
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="preview-budget" className="text-sm font-medium text-slate-800">
            Budget in tokens
          </label>
          {/* Text, not type=number: a browser empties a number field it cannot read, and what was typed must stay. */}
          <input
            id="preview-budget"
            name="preview_budget"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            defaultValue={budget ?? ""}
            aria-invalid={errors.budget ? true : undefined}
            aria-describedby={budgetHelp}
            className={`${fieldClass} min-h-10`}
          />
          <p id="preview-budget-hint" className="text-xs text-slate-600">
            Optional: the most tokens the prompt section may take.
          </p>
          {errors.budget ? (
            <p id="preview-budget-error" className="text-sm text-red-700">
              {errors.budget}
            </p>
          ) : null}
        </div>
        <div>
          <Button type="submit" variant="secondary">
            Preview recall
          </Button>
        </div>
      </UrlForm>
      {/* Always in the page, so a screen reader hears each new preview when it arrives. */}
      <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </p>
      {result.status === "refused" ? (
        <p role="alert" aria-label="Preview problem" className="text-sm text-red-700">
          You can only preview places you are in.
        </p>
      ) : null}
      {result.status === "ok" ? (
        <div role="region" className="flex flex-col gap-2" aria-label="Recall preview">
          <p className="text-sm font-medium text-slate-800">{RANKING_WORDS[result.ranking]}</p>
          <p className="text-sm text-slate-700">
            In {result.placeLabel}, {agentName} would recall {result.facts.length} of{" "}
            {plural(result.considered, "fact that applies", "facts that apply")} here (
            {plural(result.tokens, "token", "tokens")}):
          </p>
          {result.facts.length ? (
            <ol aria-label="Recalled facts" className="flex list-decimal flex-col gap-1 pl-5 text-sm">
              {result.facts.map((fact) => (
                <li key={fact.id}>
                  {fact.body}
                  <span className="block text-xs text-slate-600">{receiptWords(fact.why, result.ranking)}</span>
                </li>
              ))}
            </ol>
          ) : null}
          {result.leftOut.length || unlisted > 0 ? (
            <>
              <p id="preview-left-out" className="text-sm font-medium text-slate-800">
                Left out ({result.considered - result.facts.length})
              </p>
              <ul aria-labelledby="preview-left-out" className="flex list-disc flex-col gap-1 pl-5 text-sm">
                {result.leftOut.map((fact) => (
                  <li key={fact.id}>
                    {fact.body}
                    <span className="block text-xs text-slate-600">{leftOutWords(fact, result)}</span>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {unlisted > 0 ? (
            <p className="text-sm text-slate-700">
              {/* Without a question recall reads only the newest facts of each kind, so older ones are counted, not listed. */}
              {unlisted === 1 ? "1 older fact is" : `${unlisted.toLocaleString("en-US")} older facts are`} past the limit of{" "}
              {result.limit} too.
            </p>
          ) : null}
          <p className="text-sm font-medium text-slate-800">Prompt section</p>
          <pre
            // A named region: a plain <pre> may not carry a name.
            role="region"
            aria-label="Prompt section"
            // Scrollable, so reachable by keyboard: arrow keys scroll it once focused.
            tabIndex={0}
            className="max-h-80 overflow-auto rounded-md bg-slate-900 p-3 text-xs whitespace-pre-wrap text-slate-100"
          >
            {result.section ?? "(none: with no facts, no section is added)"}
          </pre>
        </div>
      ) : null}
    </section>
  );
}
