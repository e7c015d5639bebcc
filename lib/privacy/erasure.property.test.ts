/**
 * Erasure is complete and touches no one else (issue #16), as a property: in a
 * demo workspace seeded at random with facts kept just for people, and others,
 * erasing a random person (in their workspace, or everywhere) leaves none of
 * their person facts' text in any table — FTS5's shadow tables and the word
 * index included — in the full-text vocabulary, in any export, in any recall
 * through the API's kept answers, or in any byte of the database file; and every
 * other row is as it was (snapshot compare). Few runs: each is a real file.
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { seedDemo } from "@/db/seed";
import { OPERATOR } from "@/lib/admin/audit";
import { authenticateAgent } from "@/lib/api/auth";
import { recallAnswer, recallOutputOf, RecallCache } from "@/lib/api/recall-cache";
import { remember } from "@/lib/memory/writes";
import { allRows, type Snapshot } from "@/lib/testing/db-rows";
import { checkpoint, filesHolding, indexHasWord, tablesHolding } from "@/lib/testing/residue";
import { createTempDb } from "@/lib/testing/temp-db";
import { erasePersonFacts } from "./erase-person-facts";
import { exportPerson } from "./export-person";

const KEYS = { scout: `mnemo_${"s".repeat(40)}`, echo: `mnemo_${"e".repeat(40)}` };
/** Each demo person, their workspace's agent and key, and their solo DM. */
const PEOPLE = [
  { id: "olivia", workspace: "acme", agent: "scout", key: KEYS.scout, dm: null },
  { id: "max", workspace: "acme", agent: "scout", key: KEYS.scout, dm: "dm-max" },
  { id: "ana", workspace: "acme", agent: "scout", key: KEYS.scout, dm: "dm-ana" },
  { id: "gus", workspace: "acme", agent: "scout", key: KEYS.scout, dm: "dm-gus" },
  { id: "gina", workspace: "globex", agent: "echo", key: KEYS.echo, dm: "dm-gina" },
] as const;

/** A word no other fact holds, so finding it anywhere means the erased text survived. */
const marker = () => `zzqerase${randomBytes(5).toString("hex")}`;

async function keepPersonFact(db: Db, person: (typeof PEOPLE)[number], word: string, shared: boolean) {
  const result = await remember(db, {
    agentId: person.agent,
    workspaceId: person.workspace,
    body: shared ? `The team calls the release train ${word}.` : `${person.id} keeps notes under the word ${word}.`,
    scope: shared ? "workspace" : "person",
    scopeRef: shared ? "" : person.id,
    scopeLabel: shared ? null : person.id,
    source: { kind: "message", ref: null, label: `@${person.id} in a direct message`, channelId: person.dm },
    by: { kind: "agent", id: person.agent, name: person.agent },
    pinned: false,
  });
  if (result.status !== "created") throw new Error(`remember answered ${result.status}`);
  return result.fact.id;
}

async function recalledIn(db: Db, person: (typeof PEOPLE)[number], cache: RecallCache): Promise<string> {
  if (!person.dm) return "";
  const agent = await authenticateAgent(db, new Request("http://mnemo.test/api/v1/recall", { headers: { authorization: `Bearer ${person.key}` } }));
  return JSON.stringify(recallOutputOf(await recallAnswer(db, agent, { channel: person.dm, asker: person.id }, cache)));
}

/** Every row but the erased facts' and what erasure itself writes (audit, versions, session versions). */
async function othersOf(db: Db, erased: Set<string>): Promise<Snapshot> {
  const all = await allRows(db);
  const seqs = new Set(all.facts.filter((f) => erased.has(String(f.id))).map((f) => Number(f.seq)));
  const terms = (await db.$client.execute("SELECT * FROM fact_terms ORDER BY branch, term, fact_seq")).rows.map((r) => ({ ...r }));
  return {
    ...all,
    facts: all.facts.filter((f) => !erased.has(String(f.id))),
    fact_events: all.fact_events.filter((e) => !erased.has(String(e.fact_id))),
    agents: all.agents.map((agent) => ({ ...agent, memory_version: null })),
    users: all.users.map((user) => ({ ...user, session_version: null })),
    audit_events: [],
    fact_terms: terms.filter((row) => !seqs.has(Number(row.fact_seq))),
  };
}

describe("erasing a random person", () => {
  it("leaves none of their person facts' text anywhere, and everyone else's data unchanged", async () => {
    await fc.assert(
      fc.asyncProperty(
        // How many person facts each demo person gets, and how many workspace facts their words made.
        fc.array(fc.record({ own: fc.integer({ min: 0, max: 3 }), shared: fc.integer({ min: 0, max: 1 }) }), {
          minLength: PEOPLE.length,
          maxLength: PEOPLE.length,
        }),
        fc.integer({ min: 0, max: PEOPLE.length - 1 }),
        fc.boolean(),
        async (plan, chosen, everywhere) => {
          const t = await createTempDb();
          try {
            await seedDemo(t.db, KEYS);
            const words = new Map<string, string[]>();
            for (const [i, person] of PEOPLE.entries()) {
              words.set(person.id, []);
              for (let n = 0; n < plan[i].own; n++) {
                const word = marker();
                await keepPersonFact(t.db, person, word, false);
                words.get(person.id)?.push(word);
              }
              for (let n = 0; n < plan[i].shared; n++) await keepPersonFact(t.db, person, marker(), true);
            }
            const person = PEOPLE[chosen];
            const cache = new RecallCache(16 * 2 ** 20);
            const erasedWords = words.get(person.id) ?? [];
            // Theirs: the seed's person facts too. Each demo person is in one workspace, so "everywhere" takes the same.
            const theirFacts = (
              await t.db.$client.execute({ sql: "SELECT id, body FROM facts WHERE scope = 'person' AND scope_ref = ?", args: [person.id] })
            ).rows.map((row) => ({ id: String(row.id), body: String(row.body) }));
            const theirs = new Set(theirFacts.map((f) => f.id));
            // Kept answers exist before the erasure, so a stale one would be served after it.
            const before = await recalledIn(t.db, person, cache);
            for (const fact of theirFacts) if (person.dm) expect(before).toContain(fact.body);
            const snapshot = await othersOf(t.db, theirs);

            const result = await erasePersonFacts(t.db, person.id, {
              dryRun: false,
              workspaceId: everywhere ? undefined : person.workspace,
              by: OPERATOR,
              endSessions: true,
            });
            expect(result.total).toBe(theirFacts.length);

            expect(await othersOf(t.db, theirs)).toEqual(snapshot);
            const recalled = await recalledIn(t.db, person, cache);
            const exports = JSON.stringify(await Promise.all(PEOPLE.map((p) => exportPerson(t.db, p.id))));
            await checkpoint(t.db);
            for (const { body } of theirFacts) {
              expect(await tablesHolding(t.db, body)).toEqual([]);
              expect(recalled).not.toContain(body);
              expect(exports).not.toContain(body);
              expect(filesHolding(t.file, body)).toEqual([]);
            }
            // The markers are words of their own: the index's vocabulary, the postings and the file have none.
            for (const word of erasedWords) {
              expect(await tablesHolding(t.db, word)).toEqual([]);
              expect(await indexHasWord(t.db, word)).toBe(false);
              expect(filesHolding(t.file, word)).toEqual([]);
            }
            // Everyone else's facts are still found, by the index too.
            for (const [id, list] of words) {
              if (id === person.id) continue;
              for (const word of list) expect(await indexHasWord(t.db, word)).toBe(true);
            }
          } finally {
            t.close();
          }
        },
      ),
      { numRuns: 4, seed: 1616 },
    );
  }, 120_000);
});
