/**
 * Logs a server action when it answers: request id, the page it came from, the
 * person, the answer's status and the duration. Never the input: it holds fact text.
 */
import { headers } from "next/headers";
import { log, requestIdFrom } from "@/lib/ops/log";

async function requestHeaders(): Promise<Headers | null> {
  try {
    return await headers();
  } catch {
    return null; // outside a request (tests, scripts): nothing to read
  }
}

export async function logAction<Result>(
  kind: string,
  actor: () => string | undefined,
  run: () => Promise<Result>,
): Promise<Result> {
  const started = performance.now();
  const incoming = await requestHeaders();
  const referer = incoming?.get("referer");
  let route: string | undefined;
  try {
    route = referer ? new URL(referer).pathname : undefined;
  } catch {
    route = undefined;
  }
  const result = await run();
  const status =
    result && typeof result === "object" && "status" in result ? String((result as { status: unknown }).status) : "done";
  log("info", "action", {
    requestId: incoming ? requestIdFrom(incoming) : undefined,
    kind,
    route,
    userId: actor(),
    status,
    ms: Math.round((performance.now() - started) * 10) / 10,
  });
  return result;
}
