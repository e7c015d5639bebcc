/**
 * The Memory page's "Preview recall": what an agent would be given in a place the
 * person can read, for a question and a token budget, with each fact's receipt and
 * what was left out. It takes recall's own path (recallRanked, with meaning when a
 * provider is configured) so the preview cannot drift from what agents get, but it
 * is not a recall: nothing is counted (noteRecalled lives in lib/api/recall-cache.ts,
 * which this never calls) and nothing is kept.
 */
import type { Conn } from "@/db/client";
import type { PreviewResult } from "@/components/memory/recall-preview";
import { meaningFor } from "@/lib/embeddings/meaning";
import type { ReadableChannel } from "@/lib/memory/channels";
import { derivePlace, PlaceError } from "@/lib/memory/place";
import { recallRanked } from "@/lib/memory/ranked-recall";
import { RECALL_LIMIT } from "@/lib/memory/rules";
import { recallPreviewInput } from "@/lib/validation/memory";

/** What the preview form sent, as typed (the Memory page's URL). */
export type PreviewAsked = { place?: string; question?: string; budget?: string };

/**
 * Who is previewing and whose memory. The place is derived for the person as the
 * asker, so it is refused unless they can read it. Every fact recall allows there is
 * one they may see (visibleTo in lib/memory/rules.ts): workspace facts; the channel's
 * own facts, and they can read the channel; person facts only in a DM with one person,
 * who must be them. So the answer and its left-out facts need no second filter;
 * preview-recall.test.ts checks this for every demo person and place.
 */
export type Previewer = { workspaceId: string; personId: string; agentId: string };

export async function previewRecall(
  db: Conn,
  who: Previewer,
  asked: PreviewAsked,
  channels: readonly ReadableChannel[],
): Promise<PreviewResult> {
  if (!asked.place) return { status: "none" };
  const input = recallPreviewInput.safeParse({ question: asked.question, budget: asked.budget || undefined });
  if (!input.success) {
    const errors: { question?: string; budget?: string } = {};
    for (const issue of input.error.issues) {
      const field = issue.path[0];
      if ((field === "question" || field === "budget") && !errors[field]) errors[field] = issue.message;
    }
    return { status: "invalid", errors };
  }

  let place;
  try {
    ({ place } = await derivePlace(db, who.workspaceId, asked.place, who.personId));
  } catch (error) {
    if (error instanceof PlaceError) return { status: "refused" };
    throw error;
  }
  const { question, budget } = input.data;
  const ranked = await recallRanked(db, who.agentId, place, {
    question,
    budget,
    limit: RECALL_LIMIT,
    // Every fact left out, with its reason: agents get only the count.
    explain: true,
    // As recallForAgent (lib/api/agent-memory.ts) asks it: meaning when a provider answers, words only when not.
    meaning: meaningFor(db, who.agentId, who.workspaceId),
  });
  return {
    status: "ok",
    placeLabel: channels.find((c) => c.id === asked.place)?.label ?? asked.place,
    ranking: ranked.ranking,
    considered: ranked.considered,
    tokens: ranked.tokens,
    limit: RECALL_LIMIT,
    budget: budget ?? null,
    // Small views, never whole rows: the body and the receipt are all the preview shows.
    facts: ranked.facts.map(({ fact, why }) => ({ id: fact.id, body: fact.body, why })),
    leftOut: ranked.leftOut.map(({ fact, why, reason }) => ({ id: fact.id, body: fact.body, why, reason })),
    section: ranked.section,
  };
}
