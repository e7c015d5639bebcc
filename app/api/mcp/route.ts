/**
 * /api/mcp: the agent API as an MCP server over Streamable HTTP (stateless), with
 * the same bearer key and rate limit as the REST routes. The key is checked before
 * the MCP transport sees the request.
 */
import { getDb } from "@/db";
import { apiError, errorResponse } from "@/lib/api/errors";
import { admitAgent } from "@/lib/api/handler";
import { handleMcpRequest } from "@/lib/api/mcp";

export async function POST(request: Request): Promise<Response> {
  try {
    const db = getDb();
    const agent = await admitAgent(db, request);
    return await handleMcpRequest(db, agent, request);
  } catch (error) {
    return errorResponse(error);
  }
}

/** A stateless server has no stream to open or session to end. */
function methodNotAllowed(): Response {
  return errorResponse(
    apiError(405, "method_not_allowed", "This MCP server is stateless: send JSON-RPC messages with POST.", { Allow: "POST" }),
  );
}

export const GET = methodNotAllowed;
export const DELETE = methodNotAllowed;
