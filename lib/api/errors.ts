/**
 * The agent API's one error shape: `{"error": {"code", "message"}}` with
 * a fitting status. Known problems are ApiErrors; a zod error is a 422 naming the
 * field; anything else is a 500 with a generic message, the detail only in the log.
 */
import { ZodError } from "zod";
import { errorSummary, log } from "@/lib/ops/log";
import { ERROR_STATUS, type ErrorCode } from "@/lib/validation/agent-api";

/**
 * What makes an error an ApiError, whichever copy of this module made it. The bundler
 * gives instrumentation and each route a copy of their own, and the agent thread's
 * handle (lib/api/agent-thread.ts) is instrumentation's: a refusal it hands back is
 * made with that copy's class, which a route's `instanceof` would not recognize (and
 * answer with a 500). Symbol.for is one symbol for every copy.
 */
const API_ERROR = Symbol.for("mnemo.ApiError");

export class ApiError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as { [API_ERROR]?: boolean })[API_ERROR] === true;
  }

  readonly [API_ERROR] = true;
  /** Decided by the code (ERROR_STATUS), never chosen by the thrower. */
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.status = ERROR_STATUS[code];
  }
}

export function apiError(code: ErrorCode, message: string, headers?: Record<string, string>): ApiError {
  return new ApiError(code, message, headers);
}

/** Responses of the API are about one agent's memory: never cached anywhere. */
export const NO_STORE = { "Cache-Control": "no-store" } as const;

/** A 200 response whose body is JSON made already, as UTF-8 bytes, with the same headers as `json`. */
export function jsonBytes(body: Uint8Array<ArrayBuffer>): Response {
  return new Response(body, { headers: { ...NO_STORE, "Content-Type": "application/json" } });
}

/** A JSON response with the API's headers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...headers } });
}

/** A zod error as one sentence that names the first field at fault. */
export function describeZodError(error: ZodError): string {
  const [issue] = error.issues;
  if (!issue) return "The request is not valid.";
  if (issue.code === "unrecognized_keys") {
    const where = issue.path.length ? ` in ${issue.path.join(".")}` : "";
    const keys = issue.keys.map((key) => JSON.stringify(key)).join(", ");
    return `Unknown field${issue.keys.length > 1 ? "s" : ""}${where}: ${keys}. Send only the documented fields.`;
  }
  const field = issue.path.length ? issue.path.join(".") : "the body";
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more problem${error.issues.length > 2 ? "s" : ""})` : "";
  return `${field}: ${issue.message}${more}.`;
}

/** Any error as the API's answer to it. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof ZodError) return apiError("invalid_request", describeZodError(error));
  // The detail goes to the log only; the stack too, for whoever debugs it.
  log("error", "api.unexpected_error", { error: errorSummary(error), stack: error instanceof Error ? error.stack : undefined });
  return apiError("internal_error", "Something went wrong on our side. Try again in a moment.");
}

export function errorResponse(error: unknown): Response {
  const { status, code, message, headers } = toApiError(error);
  return json({ error: { code, message } }, status, headers);
}
