/**
 * Runs before every page. Two jobs, both cheap:
 * 1. The Content-Security-Policy, with a fresh nonce that Next applies to its scripts.
 * 2. The optimistic sign-in check: app pages without a session cookie go to
 *    sign-in at once. The real checks (who, which workspace, which rule) happen
 *    in the data layer on every request.
 */
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce } from "@/lib/security/headers";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];
/** Pages anyone may open: sign-in (and sign-up), and invite links (the link is the credential). */
const PUBLIC_PAGES = /^\/(signin|invite)(\/|$)/;

function hasSession(request: NextRequest): boolean {
  // A large session may be split into `<name>.0`, `<name>.1`…
  return request.cookies
    .getAll()
    .some(({ name }) => SESSION_COOKIES.some((cookie) => name === cookie || name.startsWith(`${cookie}.`)));
}

/** The page's policy. (The headers every response gets, pages and API alike, are in next.config.mjs.) */
function secure(response: NextResponse, csp: string): NextResponse {
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development" });
  const { pathname, search } = request.nextUrl;

  if (!PUBLIC_PAGES.test(pathname) && !hasSession(request)) {
    const signIn = new URL("/signin", request.url);
    if (pathname !== "/") signIn.searchParams.set("callbackUrl", `${pathname}${search}`);
    return secure(NextResponse.redirect(signIn), csp);
  }
  // Next reads the nonce from the request's CSP header and puts it on its scripts.
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("Content-Security-Policy", csp);
  return secure(NextResponse.next({ request: { headers } }), csp);
}

export const config = {
  // Every page. Not the APIs (they check keys or sessions themselves and get their
  // baseline headers from next.config.mjs only), nor static files, nor prefetches.
  matcher: [
    {
      source: "/((?!api/|_next/static|_next/image|favicon.ico|robots.txt|.*\\.(?:svg|png|ico|webmanifest)$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
