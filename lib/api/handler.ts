/**
 * The one way an agent API route runs, in a fixed order: parse the request (400,
 * 413, 422), check the key (401), count it against the rate limit (429), then act
 * — where loading answers 404, the rules 403, and the store the rest. Whatever
 * goes wrong becomes the API's error envelope; nothing escapes as a stack trace.
 */
import type { Db } from "@/db/client";
import { getDb } from "@/db";
import { readConfig } from "@/lib/config";
import { authenticateAgent, type AgentContext } from "./auth";
import { errorResponse } from "./errors";
import { enforceRateLimit } from "./rate-limit";
import { log, logs, requestIdFrom } from "@/lib/ops/log";

/** A route's helpers: the validated input, the calling agent, and the database. */
export type AgentCall<Input> = { input: Input; agent: AgentContext; db: Db };

let validatedRateLimit: number | undefined;

/** MNEMO_API_RATE_LIMIT, validated on the first request rather than on every one. */
function rateLimit(): number {
  return (validatedRateLimit ??= readConfig().MNEMO_API_RATE_LIMIT);
}

/** Checks the key and the rate limit for a request that has already been parsed. */
export async function admitAgent(db: Db, request: Request): Promise<AgentContext> {
  const agent = await authenticateAgent(db, request);
  await enforceRateLimit(db, agent.keyId, rateLimit());
  return agent;
}

/**
 * Logs one API request when it is answered — request id, method, route, status,
 * duration and the agent — and hands the request id back in `X-Request-Id`.
 */
export function withRequestLog<Context>(
  handle: (request: Request, context: Context, seen: { agentId?: string }) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return async (request, context) => {
    const started = performance.now();
    const requestId = requestIdFrom(request.headers);
    const seen: { agentId?: string } = {};
    const response = await handle(request, context, seen);
    response.headers.set("X-Request-Id", requestId);
    if (!logs("info")) return response;
    log("info", "api.request", {
      requestId,
      method: request.method,
      route: new URL(request.url).pathname,
      status: response.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      agentId: seen.agentId,
    });
    return response;
  };
}

export function agentRoute<Input, Context = unknown>(
  parse: (request: Request, context: Context) => Input | Promise<Input>,
  act: (call: AgentCall<Input>) => Promise<Response>,
): (request: Request, context: Context) => Promise<Response> {
  return withRequestLog(async (request, context, seen) => {
    try {
      const input = await parse(request, context);
      const db = getDb();
      const agent = await admitAgent(db, request);
      seen.agentId = agent.agentId;
      return await act({ input, agent, db });
    } catch (error) {
      return errorResponse(error);
    }
  });
}
