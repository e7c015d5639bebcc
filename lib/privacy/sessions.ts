/**
 * "Sign out everywhere" (issue #16): ends every session of a person at once, on
 * every device, by bumping their session version (lib/auth/session-version.ts).
 * Erasure by an operator and account deletion call it too.
 *
 *   endAllSessions(db, userId) → void
 */
import type { Conn } from "@/db/client";
import { endSessions } from "@/lib/auth/session-version";

export async function endAllSessions(db: Conn, userId: string): Promise<void> {
  await endSessions(db, userId);
}
