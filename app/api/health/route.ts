/** Liveness: the process answers. No database work, so it is also the framework's floor in the benchmark. */
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true }, { headers: { "Cache-Control": "no-store" } });
}
