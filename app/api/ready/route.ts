/** Readiness: the database answers and its migrations are applied; 503 with the reason otherwise. */
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";
import { getDb } from "@/db";
import { isDraining } from "@/lib/ops/draining";
import { readiness } from "@/lib/ops/readiness";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  if (isDraining()) {
    return Response.json(
      { ok: false, reason: "Shutting down: finishing the requests in flight." },
      { status: 503, headers: { "Cache-Control": "no-store" } },
    );
  }
  let state;
  try {
    state = await readiness(getDb());
  } catch (error) {
    state = { ok: false as const, reason: `The database cannot be opened: ${error instanceof Error ? error.message : String(error)}` };
  }
  return Response.json(state, { status: state.ok ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}

export const OPTIONS = allowedOptions;
export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
