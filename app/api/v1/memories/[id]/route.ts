/** DELETE /api/v1/memories/<id>?channel=<id>&asker=<user id>: the agent forgets a fact where agentMayForget (lib/memory/rules.ts) allows it. */
import { forgetForAgent } from "@/lib/api/agent-memory";
import { NO_STORE } from "@/lib/api/errors";
import { agentRoute } from "@/lib/api/handler";
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { parseQuery } from "@/lib/api/request";
import { forgetInput } from "@/lib/validation/agent-api";

export const DELETE = agentRoute(
  async (request, { params }: { params: Promise<{ id: string }> }) =>
    parseQuery(request, ["channel", "asker"], forgetInput, { id: (await params).id }),
  async ({ input, agent, db }) => {
    await forgetForAgent(db, agent, input);
    return new Response(null, { status: 204, headers: NO_STORE });
  },
);

export const OPTIONS = allowedOptions;
export const GET = methodNotAllowed;
export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
