/**
 * The optimistic check only: pages without a session cookie go to sign-in at
 * once. The real checks (who, which workspace, which rule) happen in the data
 * layer on every request.
 */
import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["authjs.session-token", "__Secure-authjs.session-token"];

export function proxy(request: NextRequest) {
  // A large session may be split into `<name>.0`, `<name>.1`…
  const hasSession = request.cookies
    .getAll()
    .some(({ name }) => SESSION_COOKIES.some((cookie) => name === cookie || name.startsWith(`${cookie}.`)));
  if (hasSession) return NextResponse.next();
  const signIn = new URL("/signin", request.url);
  const { pathname, search } = request.nextUrl;
  if (pathname !== "/") signIn.searchParams.set("callbackUrl", `${pathname}${search}`);
  return NextResponse.redirect(signIn);
}

export const config = {
  // Everything but sign-in, invite links (the link is the credential), the APIs (they
  // check keys or sessions themselves) and static files.
  matcher: ["/((?!signin|invite/|api/|_next/|favicon.ico|robots.txt|.*\\.(?:svg|png|ico|webmanifest)$).*)"],
};
