/**
 * GET /api/v1/recall?channel=<id>&asker=<user id>&q=<question>&limit=<n>&budget=<tokens>, and POST with the same
 * fields as a JSON body (for questions too long for a URL): what the agent recalls there, ranked by the question.
 * Both answer through the same cache, so the same input gets the same bytes. Shapes: lib/validation/agent-api.ts.
 */
import { jsonBytes } from "@/lib/api/errors";
import { agentRoute, type AgentCall } from "@/lib/api/handler";
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { recallAnswer } from "@/lib/api/recall-cache";
import { parseJsonBody, parseQuery } from "@/lib/api/request";
import { recallBody, recallInput, type RecallInput } from "@/lib/validation/agent-api";

const answer = async ({ input, agent, db }: AgentCall<RecallInput>) => jsonBytes(await recallAnswer(db, agent, input));

export const GET = agentRoute(
  (request) => parseQuery(request, ["channel", "asker", "q", "limit", "budget"], recallInput),
  answer,
);
export const POST = agentRoute((request) => parseJsonBody(request, recallBody), answer);

export const OPTIONS = allowedOptions;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
