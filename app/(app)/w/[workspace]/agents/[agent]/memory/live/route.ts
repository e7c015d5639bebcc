/**
 * GET …/memory/live: the Memory page's live stream (Server-Sent Events). The
 * session and the membership are checked here again (the proxy only looked for a
 * cookie); afterwards the process's watcher re-checks both on every tick and ends
 * the stream when either is gone. Only "changed" travels, with the new version as
 * the event id; the page reads itself again through the rules. `since` (or, on a
 * reconnect, Last-Event-ID) is the version the page has: if the memory moved past
 * it meanwhile, "changed" is sent at once, so no change is missed.
 */
import { getDb } from "@/db";
import { currentUser, memberAndAgent } from "@/lib/auth/session";
import { SESSION_IDLE_SECONDS, sessionVersionOf } from "@/lib/auth/session-version";
import { liveStream } from "@/lib/live/event-stream";
import { parseVersion, watcherFor } from "@/lib/live/memory-watcher";

export const dynamic = "force-dynamic";

type Context = { params: Promise<{ workspace: string; agent: string }> };

const TEXT = { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" };

export async function GET(request: Request, { params }: Context): Promise<Response> {
  const { workspace: workspaceId, agent: handle } = await params;
  const user = await currentUser();
  if (!user) {
    return new Response("Sign in to follow this page.\n", { status: 401, headers: TEXT });
  }
  const found = await memberAndAgent(user, workspaceId, handle);
  if (!found) return new Response("There is no such agent in a workspace of yours.\n", { status: 404, headers: TEXT });

  const url = new URL(request.url);
  const seen = parseVersion(request.headers.get("last-event-id")) ?? parseVersion(url.searchParams.get("since"));
  const db = getDb();
  const body = liveStream(
    watcherFor(db),
    {
      agentId: found.agent.id,
      workspaceId,
      userId: user.id,
      // currentUser just found the token's version equal to this one; from now on the watcher compares on every tick.
      sessionVersion: await sessionVersionOf(db, user.id),
      // The proxy renewed the token for this request; a stream does not outlive it unused.
      expiresAt: Date.now() + SESSION_IDLE_SECONDS * 1000,
      seen,
    },
    request.signal,
  );
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      // One person's stream, never kept; no-transform keeps compression from holding events back.
      "cache-control": "private, no-store, no-transform",
      // Proxies that buffer (nginx) pass events through at once.
      "x-accel-buffering": "no",
    },
  });
}
