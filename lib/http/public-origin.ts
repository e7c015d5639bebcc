/**
 * The site's own origin, from AUTH_URL (the public address Auth.js also uses):
 * the one origin a browser page may call the MCP endpoint from, and the server
 * the OpenAPI document names. Null when no public address is configured.
 */
import { readConfig } from "@/lib/config";

let known: { raw: string | undefined; origin: string | null } | null = null;

export function publicOrigin(): string | null {
  const raw = process.env.AUTH_URL;
  // Read again only when the variable changes (tests change it; a server never does).
  if (!known || known.raw !== raw) {
    const url = readConfig().AUTH_URL;
    known = { raw, origin: url ? new URL(url).origin : null };
  }
  return known.origin;
}
