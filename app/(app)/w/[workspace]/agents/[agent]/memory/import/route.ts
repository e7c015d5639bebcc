/**
 * POST …/memory/import?intent=check|import: "Import workspace facts", with the
 * facts file as the body. A route handler rather than a server action because
 * the file may be 5 MB: server actions keep Next's 1 MB limit, as every one of
 * them (the public sign-in included) would otherwise parse 5 MB from anyone.
 * Here nothing of the body is read until the caller is known to be an owner of
 * the workspace, and never more than the file limit. The answer is the form's
 * ImportState as JSON.
 */
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getDb } from "@/db";
import { NOTHING_HERE } from "@/lib/actions/owner-action";
import { SIGNED_OUT } from "@/lib/actions/user-action";
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { currentUser, memberAndAgent } from "@/lib/auth/session";
import { answerImport, type ImportState } from "@/lib/memory/import-answer";
import { log } from "@/lib/ops/log";
import { readCappedBody } from "@/lib/security/capped-body";
import { isSameOrigin } from "@/lib/security/same-origin";
import { IMPORT_TOO_LARGE, MAX_IMPORT_BYTES } from "@/lib/validation/fields";

type Context = { params: Promise<{ workspace: string; agent: string }> };

const intentOf = z.enum(["check", "import"]);

function answer(status: number, state: ImportState): Response {
  return Response.json(state, { status, headers: { "cache-control": "no-store" } });
}

/** A refusal of the file's content is 422; a file the agent's memory can't take as it is now, 409. */
function statusOf(state: ImportState): number {
  if (state.status === "invalid_data") return 422;
  if (state.status === "failed") return state.summary ? 409 : 404;
  return 200;
}

export async function POST(request: Request, { params }: Context): Promise<Response> {
  // A cookie-carrying write: refused unless one of this site's pages sent it.
  if (!isSameOrigin(request)) {
    return answer(403, { status: "failed", message: "Import from the Memory page in Mnemo itself. Reload the page and try again." });
  }
  const intent = intentOf.safeParse(new URL(request.url).searchParams.get("intent"));
  if (!intent.success) return answer(400, { status: "invalid_data", message: "Say whether to check the file or import it." });
  const user = await currentUser();
  if (!user) return answer(401, { status: "failed", message: SIGNED_OUT });
  const { workspace, agent: handle } = await params;
  const found = await memberAndAgent(user, workspace, handle);
  if (!found || found.member.role !== "owner") return answer(404, { status: "failed", message: NOTHING_HERE });

  const body = await readCappedBody(request, MAX_IMPORT_BYTES);
  if (body === "too_large") return answer(413, { status: "invalid_data", message: IMPORT_TOO_LARGE });
  const owner = { workspaceId: workspace, id: user.id, name: user.name, handle: user.handle };
  const state = await answerImport(getDb(), owner, found.agent, intent.data, new TextDecoder().decode(body));
  if (state.status === "imported") revalidatePath(`/w/${workspace}`, "layout");
  log("info", "import", { userId: user.id, workspaceId: workspace, intent: intent.data, status: state.status });
  return answer(statusOf(state), state);
}

// The proxy does not run here (it would buffer the body), so this route answers other methods itself.
export const OPTIONS = allowedOptions;
export const GET = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
