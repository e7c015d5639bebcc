/**
 * The answers of an API route to methods it does not serve, and to OPTIONS, both
 * from the one table of allowed methods. Without them Next answers a 405 with no
 * `Allow`, and an OPTIONS listing methods that then answer 405.
 */
import { allowHeader } from "@/lib/http/allowed-methods";
import { apiError, errorResponse, NO_STORE, type ApiError } from "./errors";

/** An API path that matches no call. */
export function noSuchCall(): ApiError {
  return apiError("not_found", "There is no such API call. See /api/v1/openapi.json for the calls there are.");
}

/** 405 in the API's envelope, with `Allow` naming exactly what the route serves. */
export function methodNotAllowed(request: Request): Response {
  const allow = allowHeader(new URL(request.url).pathname);
  if (!allow) return errorResponse(noSuchCall());
  return errorResponse(apiError("method_not_allowed", `This call takes ${allow} only.`, { Allow: allow }));
}

/** OPTIONS: 204 with the route's methods. */
export function allowedOptions(request: Request): Response {
  const allow = allowHeader(new URL(request.url).pathname);
  if (!allow) return errorResponse(noSuchCall());
  return new Response(null, { status: 204, headers: { ...NO_STORE, Allow: allow } });
}
