import { headers } from "next/headers";

/** The address a request came from, as the server in front of Next reports it (first X-Forwarded-For hop). */
export function clientAddress(incoming: Headers): string | null {
  const forwarded = incoming.get("x-forwarded-for");
  return forwarded ? forwarded.split(",")[0].trim() || null : null;
}

/** The current request's address, in a server action or page; null outside a request (scripts, tests). */
export async function requestAddress(): Promise<string | null> {
  try {
    return clientAddress(await headers());
  } catch {
    return null;
  }
}
