/**
 * The size limit of a POST to a page, checked in the proxy before Next parses
 * anything. Pages take POSTs only as server actions, and Next keeps their bodies
 * to 1 MB — but it answers a bigger one with a 500 after reading a megabyte, and
 * the sign-in action is open to anyone. A declared size over the limit is a 413
 * here; a POST with no declared size (chunked) is a 411, since a browser always
 * declares the size of an action's form. The facts-file import, the one large
 * upload, is a route handler the proxy does not run for (proxy.ts).
 */

/** Next's default body limit for server actions (next.config.mjs keeps it). */
export const PAGE_POST_LIMIT = 1024 * 1024;

function refusal(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The refusal for a POST a page will not take, or null to let it through. */
export function refusePagePost(request: Request): Response | null {
  if (request.method !== "POST") return null;
  const declared = request.headers.get("content-length");
  if (declared === null) {
    return request.headers.has("transfer-encoding") ? refusal(411, "A POST to a page must declare its size (Content-Length).") : null;
  }
  if (Number(declared) > PAGE_POST_LIMIT) return refusal(413, "That form is larger than 1 MB. Send less at once.");
  return null;
}
