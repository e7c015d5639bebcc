/**
 * /api/mcp: the agent API as an MCP server over Streamable HTTP (stateless), with
 * the same bearer key and rate limit as the REST routes. The origin and then the
 * key are checked before the MCP transport sees the request.
 */
import { getDb } from "@/db";
import { errorResponse } from "@/lib/api/errors";
import { admitAgent, withRequestLog } from "@/lib/api/handler";
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { handleMcpRequest, refuseForeignOrigin } from "@/lib/api/mcp";

export const POST = withRequestLog(async (request: Request, _context: unknown, seen) => {
  try {
    refuseForeignOrigin(request);
    const db = getDb();
    const agent = await admitAgent(db, request);
    seen.agentId = agent.agentId;
    return await handleMcpRequest(db, agent, request);
  } catch (error) {
    return errorResponse(error);
  }
});

export const OPTIONS = allowedOptions;
/** A stateless server has no stream to open (GET) or session to end (DELETE). */
export const GET = methodNotAllowed;
export const DELETE = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
