/** GET /api/v1/recall?channel=<id>&asker=<user id>: what the agent recalls there. Request and answer shapes: lib/validation/agent-api.ts. */
import { jsonBytes } from "@/lib/api/errors";
import { agentRoute } from "@/lib/api/handler";
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { recallAnswer } from "@/lib/api/recall-cache";
import { parseQuery } from "@/lib/api/request";
import { recallInput } from "@/lib/validation/agent-api";

export const GET = agentRoute(
  (request) => parseQuery(request, ["channel", "asker"], recallInput),
  async ({ input, agent, db }) => jsonBytes(await recallAnswer(db, agent, input)),
);

export const OPTIONS = allowedOptions;
export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
