/**
 * Whether a cookie-authenticated write really comes from one of this site's
 * pages. Next checks this for server actions; a route handler gets no such
 * check, and SameSite=Lax on the session cookie does not stop a page on a
 * sibling subdomain (same site, other origin) from making a signed-in browser
 * POST here. Browsers send `Origin` on every POST and `Sec-Fetch-Site` on every
 * request; a POST without Origin is not from one of our pages, so it is refused.
 */

/** The host the browser addressed: the first X-Forwarded-Host a proxy set, else Host (as Next's server-action check reads it). */
function addressedHost(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return forwarded || headers.get("host");
}

export function isSameOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return false;
  const origin = request.headers.get("origin");
  if (!origin || origin === "null") return false;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const host = addressedHost(request.headers);
  return host !== null && originHost === host.toLowerCase();
}
