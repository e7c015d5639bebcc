/**
 * Which HTTP methods each path answers: the one table behind every `Allow` header.
 * API routes read it for their 405s and their OPTIONS answer, the proxy for pages,
 * and the HTTP edge (./edge.ts) for methods Next cannot route at all, so all three
 * say the same thing. allowed-methods.test.ts holds each route module to its row.
 */

/** The methods Next's route handlers can be written for; any other never reaches our code. */
export const ROUTABLE_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;

const READ = ["GET", "HEAD", "OPTIONS"];

/** Every route handler. HEAD is listed only where GET answers (Next answers HEAD with GET's headers). */
const ROUTES: readonly { path: RegExp; methods: readonly string[] }[] = [
  { path: /^\/api\/health$/, methods: READ },
  { path: /^\/api\/ready$/, methods: READ },
  { path: /^\/api\/v1\/openapi\.json$/, methods: READ },
  // POST takes the same fields as a JSON body, for questions too long for a URL.
  { path: /^\/api\/v1\/recall$/, methods: [...READ, "POST"] },
  { path: /^\/api\/v1\/memories$/, methods: ["POST", "OPTIONS"] },
  { path: /^\/api\/v1\/memories\/[^/]+$/, methods: ["DELETE", "OPTIONS"] },
  { path: /^\/api\/mcp$/, methods: ["POST", "OPTIONS"] },
  { path: /^\/api\/auth\/.+$/, methods: ["GET", "HEAD", "OPTIONS", "POST"] },
  { path: /^\/w\/[^/]+\/agents\/[^/]+\/memory\/export$/, methods: READ },
  // The Memory page's live stream (Server-Sent Events).
  { path: /^\/w\/[^/]+\/agents\/[^/]+\/memory\/live$/, methods: READ },
  { path: /^\/you\/data\/download$/, methods: READ },
  { path: /^\/w\/[^/]+\/agents\/[^/]+\/memory\/import$/, methods: ["OPTIONS", "POST"] },
];

/** Pages answer GET and HEAD, and POST for their server actions (sign-in, every form). */
export const PAGE_METHODS: readonly string[] = ["GET", "HEAD", "POST"];

/** Built assets and files in public/ are only ever read. */
const FILE_METHODS: readonly string[] = ["GET", "HEAD"];

export type PathKind = "api" | "page" | "file";

/** Route handlers, API paths that match none (a 404 whatever the method), files and pages. */
export function allowedMethods(pathname: string): { kind: PathKind; methods: readonly string[] | null } {
  const api = pathname === "/api" || pathname.startsWith("/api/");
  const route = ROUTES.find(({ path }) => path.test(pathname));
  if (route) return { kind: api ? "api" : "page", methods: route.methods };
  if (api) return { kind: "api", methods: null };
  if (pathname.startsWith("/_next/") || /\.(?:svg|png|ico|webmanifest|txt|js|css|woff2?)$/.test(pathname)) {
    return { kind: "file", methods: FILE_METHODS };
  }
  return { kind: "page", methods: PAGE_METHODS };
}

/** The `Allow` header's value for a path, or null for an API path that does not exist. */
export function allowHeader(pathname: string): string | null {
  return allowedMethods(pathname).methods?.join(", ") ?? null;
}
