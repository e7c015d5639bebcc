/**
 * Requests Next's server cannot take, answered before it sees them. Next builds a
 * web Request for every route and page, and fails with a 500 (and a stack trace
 * in the log, every time) on a method the Fetch standard forbids, such as TRACE;
 * it answers a path whose percent-escapes are not UTF-8 (`%FF`, `a%`, `%C0%80`)
 * with a plain-text 500 too. Those are outside callers' mistakes, so here they get
 * the 405 or 400 they deserve — in the API's envelope under /api — and no log line.
 */
import http from "node:http";
import { ERROR_STATUS, type ErrorCode } from "@/lib/validation/agent-api";
import { allowedMethods, ROUTABLE_METHODS } from "./allowed-methods";
import { sendInOneWrite } from "./one-write";

export type EdgeAnswer = { status: number; headers: Record<string, string>; body: string };

/** The path as sent, before any decoding; null when the request target is not a path at all (`*`, garbage). */
function rawPath(target: string): string | null {
  if (target.startsWith("/")) return target.split(/[?#]/, 1)[0];
  try {
    // The absolute form (`GET http://host/path`) keeps its escapes as sent.
    return new URL(target).pathname;
  } catch {
    return null;
  }
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

function answer(api: boolean, code: ErrorCode, message: string, extra: Record<string, string> = {}): EdgeAnswer {
  const status = ERROR_STATUS[code];
  const headers = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", ...extra };
  if (api) {
    return {
      status,
      headers: { ...headers, "Content-Type": "application/json" },
      body: JSON.stringify({ error: { code, message } }),
    };
  }
  return { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" }, body: `${message}\n` };
}

/** What to answer a request Next would fail on, or null to let Next handle it. */
export function edgeAnswer(method: string, target: string): EdgeAnswer | null {
  const path = rawPath(target);
  const api = path !== null && (path === "/api" || path.startsWith("/api/"));
  if (path === null || !decodes(path)) {
    return answer(api, "malformed_request", "The path is not a valid URL: every % must start an escape of UTF-8 bytes, such as %C3%A9.");
  }
  if ((ROUTABLE_METHODS as readonly string[]).includes(method)) return null;
  const { methods } = allowedMethods(path);
  if (!methods) {
    return answer(api, "not_found", "There is no such API call. See /api/v1/openapi.json for the calls there are.");
  }
  const allow = methods.join(", ");
  return answer(api, "method_not_allowed", `This ${api ? "call" : "page"} takes ${allow} only.`, { Allow: allow });
}

const GUARDED = Symbol.for("mnemo.httpEdge");

/**
 * Puts `edgeAnswer` in front of every HTTP server of this process, and makes each
 * response it lets through leave in one write (one-write.ts). Next's own
 * server is made inside `next start`, out of reach, so the hook is its emit of
 * "request"; instrumentation.ts installs it when the server process starts.
 */
export function guardHttpServers(): void {
  const server = http.Server.prototype as http.Server & { [GUARDED]?: true };
  if (server[GUARDED]) return;
  server[GUARDED] = true;
  const emit = server.emit;
  server.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request") {
      const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
      const refusal = edgeAnswer(request.method ?? "", request.url ?? "");
      if (refusal) {
        response.writeHead(refusal.status, refusal.headers);
        response.end(request.method === "HEAD" ? undefined : refusal.body);
        return true;
      }
      sendInOneWrite(response);
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof server.emit;
}
