/** GET /api/v1/recall?channel=<id>&asker=<user id>: what the agent recalls there (SPEC §5). */
import { jsonBytes } from "@/lib/api/errors";
import { agentRoute, methodNotAllowed } from "@/lib/api/handler";
import { recallAnswer } from "@/lib/api/recall-cache";
import { parseQuery } from "@/lib/api/request";
import { recallInput } from "@/lib/validation/agent-api";

export const GET = agentRoute(
  (request) => parseQuery(request, ["channel", "asker"], recallInput),
  async ({ input, agent, db }) => jsonBytes(await recallAnswer(db, agent, input)),
);

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
