/**
 * GET /you/data/download: "Your data" as one JSON file (lib/privacy/export-person.ts).
 * The session is checked here again (the proxy only looked for a cookie), and the
 * file is always the signed-in person's own: nothing in the request names anyone.
 */
import { getDb } from "@/db";
import { currentUser } from "@/lib/auth/session";
import { exportPerson, personDataFileName } from "@/lib/privacy/export-person";

export async function GET(request: Request): Promise<Response> {
  const user = await currentUser();
  const file = user ? await exportPerson(getDb(), user.id) : null;
  if (!user || !file) {
    const signIn = new URL("/signin", request.url);
    signIn.searchParams.set("callbackUrl", "/you/data");
    return Response.redirect(signIn, 303);
  }
  return new Response(`${JSON.stringify(file, null, 2)}\n`, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${personDataFileName(new Date(file.exported_at))}"`,
      // One person's data: never kept by a shared cache.
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
