/** Liveness: the process answers. No database work, so it is also the framework's floor in the benchmark. */
import { allowedOptions, methodNotAllowed } from "@/lib/api/methods";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}

export const OPTIONS = allowedOptions;
export const POST = methodNotAllowed;
export const PUT = methodNotAllowed;
export const PATCH = methodNotAllowed;
export const DELETE = methodNotAllowed;
