/**
 * Runs before every page. Three jobs, all cheap:
 * 1. The Content-Security-Policy, with a fresh nonce that Next applies to its scripts.
 * 2. The optimistic sign-in check: app pages without a valid session token go
 *    to sign-in at once. The real checks (who, which session version, which
 *    workspace, which rule) happen in the data layer on every request.
 * 3. Sliding sessions: Auth.js re-issues the token with each page it passes
 *    through here, so a session expires after a week unused (lib/auth/session-version.ts).
 */
import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { auth } from "@/lib/auth";
import { allowedMethods, PAGE_METHODS } from "@/lib/http/allowed-methods";
import { contentSecurityPolicy, newNonce } from "@/lib/security/headers";
import { refusePagePost } from "@/lib/security/page-post-limit";

/** Pages anyone may open: sign-in (and sign-up), and invite links (the link is the credential). */
const PUBLIC_PAGES = /^\/(signin|invite)(\/|$)/;

/**
 * Discovery documents (OAuth, OpenID) that MCP clients probe are not pages: a
 * redirect to sign-in there makes a client with a bad key report "interactive
 * sign-in required" instead of the API's 401.
 */
const DISCOVERY = /^\/\.well-known(\/|$)/;

/** A 404 for a discovery path, a 405 for a method pages do not serve (Next would render the page for a PUT). */
function refuseNonPage(request: NextRequest): NextResponse | null {
  const headers = { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };
  if (DISCOVERY.test(request.nextUrl.pathname)) return new NextResponse("Not found.\n", { status: 404, headers });
  const methods = allowedMethods(request.nextUrl.pathname).methods ?? PAGE_METHODS;
  if (methods.includes(request.method)) return null;
  const allow = methods.join(", ");
  return new NextResponse(`This page takes ${allow} only.\n`, { status: 405, headers: { ...headers, Allow: allow } });
}

/** The page's policy. (The headers every response gets, pages and API alike, are in next.config.mjs.) */
function secure(response: NextResponse, csp: string): NextResponse {
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

const withSession = auth((request) => {
  const notAPage = refuseNonPage(request);
  if (notAPage) return notAPage;
  const tooLarge = refusePagePost(request);
  if (tooLarge) return tooLarge;
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development" });
  const { pathname, search } = request.nextUrl;

  if (!PUBLIC_PAGES.test(pathname) && !request.auth) {
    const signIn = new URL("/signin", request.url);
    if (pathname !== "/") signIn.searchParams.set("callbackUrl", `${pathname}${search}`);
    return secure(NextResponse.redirect(signIn), csp);
  }
  // Next reads the nonce from the request's CSP header and puts it on its scripts.
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  return secure(NextResponse.next({ request: { headers } }), csp);
});

// Next wants a function named `proxy`; the lazily configured Auth.js hands its wrapper back as a promise.
// (Its type is a route handler's, whose second argument Auth.js passes through untouched.)
export async function proxy(request: NextRequest, event: NextFetchEvent) {
  return (await withSession)(request, event as unknown as Parameters<Awaited<typeof withSession>>[1]);
}

export const config = {
  // Every page. Not the APIs (they check keys or sessions themselves and get their
  // baseline headers from next.config.mjs only), nor static files, nor prefetches.
  matcher: [
    {
      // Nor the facts-file import: running the proxy makes Next buffer the body
      // first, and that route reads nothing before it knows the owner.
      source: "/((?!api/|_next/static|_next/image|favicon.ico|robots.txt|w/[^/]+/agents/[^/]+/memory/import$|.*\\.(?:svg|png|ico|webmanifest)$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
