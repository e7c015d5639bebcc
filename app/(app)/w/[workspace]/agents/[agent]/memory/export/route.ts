/**
 * GET …/memory/export: "Download as JSON". The signed-in person's view of the
 * agent's live facts with their history, as a file. The session and the
 * membership are checked here again (the proxy only looked for a cookie); a
 * non-member gets the same 404 as for a workspace or agent that does not exist.
 */
import { getDb } from "@/db";
import { currentUser, memberAndAgent } from "@/lib/auth/session";
import { exportFacts, exportFileName } from "@/lib/memory/export";

type Context = { params: Promise<{ workspace: string; agent: string }> };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { workspace: workspaceId, agent: handle } = await params;
  const user = await currentUser();
  if (!user) {
    const signIn = new URL("/signin", request.url);
    signIn.searchParams.set("callbackUrl", new URL(request.url).pathname);
    return Response.redirect(signIn, 303);
  }
  const found = await memberAndAgent(user, workspaceId, handle);
  if (!found) {
    return new Response("There is no such agent in a workspace of yours.\n", {
      status: 404,
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }
  const { member, agent } = found;
  const now = new Date();
  const file = await exportFacts(getDb(), { workspaceId, id: user.id }, member.workspace, agent, now);
  return new Response(`${JSON.stringify(file, null, 2)}\n`, {
    headers: {
      "content-type": "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${exportFileName(agent.handle, now)}"`,
      // What one person may see: never kept by a shared cache.
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
