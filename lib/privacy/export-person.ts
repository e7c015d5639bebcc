/**
 * "Download as JSON" of "Your data": one file holding exactly what aboutPerson
 * lists — nothing the person may not see, nothing left out. The shape is
 * documented in DEPLOY.md ("What a person's download holds").
 *
 *   exportPerson(db, userId, now?) → PersonDataFile | null (no such person)
 */
import type { Conn } from "@/db/client";
import { readOne } from "@/db/client";
import { displayName } from "@/lib/person-name";
import { aboutPersonAll } from "./about-person";
import type { AboutCounts, AboutEvent, AboutFact } from "./types";

export const PERSON_DATA_FORMAT = "mnemo.person-data";
export const PERSON_DATA_VERSION = 1;

export type PersonDataFile = {
  format: typeof PERSON_DATA_FORMAT;
  version: typeof PERSON_DATA_VERSION;
  exported_at: string;
  person: { id: string; name: string; email: string };
  counts: AboutCounts;
  /** Facts kept just for you (scope "person"), in every workspace you are in. */
  kept: AboutFact[];
  /** Facts you told an agent or added yourself. */
  told: AboutFact[];
  /** Facts agents kept from your messages, that you can still see. */
  from_messages: AboutFact[];
  /** History events you caused, on facts you can still see. */
  events: AboutEvent[];
};

export async function exportPerson(db: Conn, userId: string, now: Date = new Date()): Promise<PersonDataFile | null> {
  const user = await readOne<{ name: string | null; email: string }>(db, "SELECT name, email FROM users WHERE id = ?", [userId]);
  if (!user) return null;
  const all = await aboutPersonAll(db, userId);
  if (!all) return null;
  return {
    format: PERSON_DATA_FORMAT,
    version: PERSON_DATA_VERSION,
    exported_at: now.toISOString(),
    person: { id: userId, name: displayName(user), email: user.email },
    ...all,
  };
}

/** "my-data-2026-05-01.json". */
export function personDataFileName(now: Date = new Date()): string {
  return `my-data-${now.toISOString().slice(0, 10)}.json`;
}
