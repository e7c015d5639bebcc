/**
 * Next's routing of a web Request to the app's route handlers, as far as tests
 * need it: the module for a path, HEAD answered by GET, and Next's own bare 405
 * for a method a module does not export. Lets tests reach every route in process.
 */
import * as healthRoute from "@/app/api/health/route";
import * as mcpRoute from "@/app/api/mcp/route";
import * as readyRoute from "@/app/api/ready/route";
import * as otherRoute from "@/app/api/v1/[...path]/route";
import * as memoryRoute from "@/app/api/v1/memories/[id]/route";
import * as memoriesRoute from "@/app/api/v1/memories/route";
import * as openapiRoute from "@/app/api/v1/openapi.json/route";
import * as recallRoute from "@/app/api/v1/recall/route";

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Response | Promise<Response>;
export type RouteModule = Partial<Record<string, Handler>>;

/** Each API route module with a path it serves. */
export const API_ROUTE_MODULES: Record<string, RouteModule> = {
  "/api/health": healthRoute as unknown as RouteModule,
  "/api/ready": readyRoute as unknown as RouteModule,
  "/api/mcp": mcpRoute as unknown as RouteModule,
  "/api/v1/openapi.json": openapiRoute as unknown as RouteModule,
  "/api/v1/recall": recallRoute as unknown as RouteModule,
  "/api/v1/memories": memoriesRoute as unknown as RouteModule,
  "/api/v1/memories/some-fact": memoryRoute as unknown as RouteModule,
};

function moduleFor(pathname: string): { module: RouteModule; params: Record<string, string | string[]> } | null {
  // Decoding the path's parameters is where Next throws on an escape that is not UTF-8.
  const one = pathname.match(/^\/api\/v1\/memories\/([^/]+)$/);
  if (one) return { module: memoryRoute as unknown as RouteModule, params: { id: decodeURIComponent(one[1]) } };
  const exact = API_ROUTE_MODULES[pathname];
  if (exact) return { module: exact, params: {} };
  if (pathname.startsWith("/api/v1/")) {
    return { module: otherRoute as unknown as RouteModule, params: { path: pathname.slice("/api/v1/".length).split("/").map(decodeURIComponent) } };
  }
  return null;
}

/** The route's answer, as Next would give it (a 404 for a path no module serves). */
export async function dispatch(request: Request): Promise<Response> {
  const found = moduleFor(new URL(request.url).pathname);
  if (!found) return new Response(null, { status: 404 });
  const handler = found.module[request.method] ?? (request.method === "HEAD" ? found.module.GET : undefined);
  if (!handler) return new Response(null, { status: 405 });
  const response = await handler(request, { params: Promise.resolve(found.params) });
  return request.method === "HEAD" ? new Response(null, { status: response.status, headers: response.headers }) : response;
}
