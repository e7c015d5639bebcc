/** GET /api/v1/recall?channel=<id>&asker=<user id>: what the agent recalls there (SPEC §5). */
import { recallForAgent } from "@/lib/api/agent-memory";
import { json } from "@/lib/api/errors";
import { agentRoute, methodNotAllowed } from "@/lib/api/handler";
import { parseQuery } from "@/lib/api/request";
import { recallInput } from "@/lib/validation/agent-api";

export const GET = agentRoute(
  (request) => parseQuery(request, ["channel", "asker"], recallInput),
  async ({ input, agent, db }) => json(await recallForAgent(db, agent, input)),
);

export const POST = methodNotAllowed("GET");
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
