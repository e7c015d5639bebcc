/** POST /api/v1/memories: the agent remembers a fact where the conversation allows. Request and answer shapes: lib/validation/agent-api.ts. */
import { rememberForAgent } from "@/lib/api/agent-memory";
import { json } from "@/lib/api/errors";
import { agentRoute } from "@/lib/api/handler";
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { parseJsonBody } from "@/lib/api/request";
import { rememberInput } from "@/lib/validation/agent-api";

export const POST = agentRoute(
  (request) => parseJsonBody(request, rememberInput),
  async ({ input, agent, db }) => {
    const { status, body } = await rememberForAgent(db, agent, input);
    return json(body, status);
  },
);

export const OPTIONS = allowedOptions;
export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
