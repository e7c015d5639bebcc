/**
 * Kept recall answers on a real libSQL file with the demo workspace: an answer is
 * reused only while the agent's facts and the workspace's places are unchanged,
 * and any change — through the app, another connection, or plain SQL — is seen on
 * the very next request, refusals included.
 */
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connect, type Db } from "@/db/client";
import { OPERATOR } from "@/lib/admin/audit";
import { removeChannelMember, setChannelKind } from "@/lib/admin/channels";
import { removePerson } from "@/lib/admin/people";
import { setPinned } from "@/lib/memory/writes";
import { createDemoTempDb, REMOTE_TESTS, type TempDb } from "@/lib/testing/temp-db";
import { keepAgentWrites } from "@/lib/testing/write-policies";
import type { RecallInput } from "@/lib/validation/agent-api";
import { recallForAgent, rememberForAgent } from "./agent-memory";
import { authenticateAgent, type AgentContext } from "./auth";
import { ApiError, jsonBytes } from "./errors";
import { RecallCache, recallAnswer, recallOutputOf, type KeptRecall, type RecallAnswer } from "./recall-cache";

const SCOUT_KEY = `mnemo_${"s".repeat(40)}`;
const ECHO_KEY = `mnemo_${"e".repeat(40)}`;

let t: TempDb;
let cache: RecallCache;
beforeEach(async () => {
  t = await createDemoTempDb({ scout: SCOUT_KEY, echo: ECHO_KEY });
  cache = new RecallCache(64 * 2 ** 20);
});
afterEach(() => t.close());

/** The agent as a request with this key is admitted: with the versions read at that moment. */
const admit = (key: string, db: Db = t.db): Promise<AgentContext> =>
  authenticateAgent(db, new Request("http://mnemo.test/api/v1/recall", { headers: { authorization: `Bearer ${key}` } }));

/** One recall request as the API runs it: admit, then answer through the cache. */
async function request(input: RecallInput, key = SCOUT_KEY): Promise<RecallAnswer> {
  return recallAnswer(t.db, await admit(key), input, cache);
}

const bodies = (answer: RecallAnswer) => recallOutputOf(answer).facts.map((fact) => fact.body);

/** What a call answers, or its refusal as "status code". */
async function outcome<T>(action: () => Promise<T>): Promise<T | string> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof ApiError) return `${error.status} ${error.code}`;
    throw error;
  }
}

describe("a kept answer", () => {
  it("rolls over at midnight UTC: a fact that ended yesterday is not served from an answer kept while it held", async () => {
    const sale = "The spring sale runs until June 15.";
    // Kept at once: this is about the day, not the wait for an owner.
    await keepAgentWrites(t.db);
    await rememberForAgent(t.db, await admit(SCOUT_KEY), { channel: "general", asker: "ana", fact: sale, scope: "workspace", valid_until: "2026-06-15" });
    const agent = await admit(SCOUT_KEY);
    for (const q of [undefined, "When does the spring sale end?"]) {
      const input = { channel: "general", asker: "ana", q };
      const onDay = await recallAnswer(t.db, agent, input, cache, "2026-06-15");
      const again = await recallAnswer(t.db, agent, input, cache, "2026-06-15");
      // Kept without a question; with one, worked out again to the same bytes.
      if (q) expect(again).toEqual(onDay);
      else expect(again).toBe(onDay);
      expect(bodies(onDay)).toContain(sale);
      // The same memory version, the next day: not the kept answer, and the fact is gone.
      const after = await recallAnswer(t.db, agent, input, cache, "2026-06-16");
      expect(bodies(after)).not.toContain(sale);
      expect(recallOutputOf(after).considered).toBe(recallOutputOf(onDay).considered - 1);
    }
  });

  it("is never an answer to a question: those are worked out each time and keep nothing out of the budget", async () => {
    const agent = await admit(SCOUT_KEY);
    const input = { channel: "support", asker: "ana", q: "refund approval" };
    const first = await recallAnswer(t.db, agent, input, cache);
    expect(cache.size).toBe(0);
    const second = await recallAnswer(t.db, agent, input, cache);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
  });

  it("is reused while nothing changed, and is what a fresh recall answers", async () => {
    const first = await request({ channel: "dm-ana", asker: "ana" });
    const second = await request({ channel: "dm-ana", asker: "ana" });
    expect(second).toBe(first);
    expect(recallOutputOf(second)).toEqual(await recallForAgent(t.db, await admit(SCOUT_KEY), { channel: "dm-ana", asker: "ana" }));
    expect(bodies(second)).toContain("Ana prefers replies in Portuguese.");
  });

  it("serves the same bytes to response after response", async () => {
    const answer = await request({ channel: "general", asker: "ana" });
    const texts = await Promise.all([1, 2, 3].map(() => jsonBytes(answer).text()));
    const output = recallOutputOf(answer);
    expect(texts.map((text) => JSON.parse(text))).toEqual([output, output, output]);
    expect(output.facts.length).toBeGreaterThan(0);
  });

  it("is kept per agent, channel and asker", async () => {
    await request({ channel: "general", asker: "ana" });
    await request({ channel: "general", asker: "max" });
    await request({ channel: "general" });
    await request({ channel: "lobby" }, ECHO_KEY);
    expect(cache.size).toBe(4);
    expect(bodies(await request({ channel: "lobby" }, ECHO_KEY))).toEqual(["Globex ships from Springfield."]);
  });

  it("is never kept for a refusal", async () => {
    expect(await outcome(() => request({ channel: "leadership", asker: "ana" }))).toBe("403 cannot_read");
    expect(await outcome(() => request({ channel: "lobby" }))).toBe("404 channel_not_found");
    expect(cache.size).toBe(0);
  });
});

describe("a change made through the app is seen on the next request", () => {
  it("remember", async () => {
    await request({ channel: "support", asker: "max" });
    await rememberForAgent(t.db, await admit(SCOUT_KEY), { channel: "support", asker: "max", fact: "Support closes at six." });
    expect(bodies(await request({ channel: "support", asker: "max" }))).toContain("Support closes at six.");
  });

  it("a person unpinning a fact", async () => {
    const before = await request({ channel: "general", asker: "olivia" });
    const releases = recallOutputOf(before).facts.find((fact) => fact.body === "Releases go out on Thursdays.")!;
    expect(releases.pinned).toBe(true);
    await setPinned(t.db, { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" }, "scout", releases.id, false);
    const after = await request({ channel: "general", asker: "olivia" });
    expect(recallOutputOf(after).facts.find((fact) => fact.id === releases.id)?.pinned).toBe(false);
  });

  it("taking the asker out of a private channel refuses at once", async () => {
    expect(bodies(await request({ channel: "leadership", asker: "max" }))).toContain("The Q3 budget freeze lifts in October.");
    await removeChannelMember(t.db, OPERATOR, "acme", "leadership", "max");
    expect(await outcome(() => request({ channel: "leadership", asker: "max" }))).toBe("403 cannot_read");
  });

  it("a channel turned private refuses people outside it", async () => {
    expect(bodies(await request({ channel: "support", asker: "gus" }))).toContain("Refunds over $500 need a manager's approval.");
    await setChannelKind(t.db, OPERATOR, "acme", "support", "private");
    expect(await outcome(() => request({ channel: "support", asker: "gus" }))).toBe("403 cannot_read");
  });

  it("removing a person from the workspace", async () => {
    expect(bodies(await request({ channel: "dm-gus", asker: "gus" }))).toContain("Gus is new; explain acronyms.");
    await removePerson(t.db, OPERATOR, "acme", "gus");
    expect(await outcome(() => request({ channel: "dm-gus", asker: "gus" }))).toBe("404 asker_not_member");
  });
});

describe("a change made elsewhere is seen on the next request", () => {
  it("by another connection to the same file, as another server process would", async () => {
    await request({ channel: "dm-max", asker: "max" });
    const other = connect(t.url);
    try {
      await other.$client.execute("UPDATE facts SET body = 'Max is on call every week.' WHERE body LIKE 'Max is on call%'");
    } finally {
      other.$client.close();
    }
    expect(bodies(await request({ channel: "dm-max", asker: "max" }))).toContain("Max is on call every week.");
  });

  it("by plain SQL deleting a user, whose memberships go by cascade", async () => {
    await request({ channel: "dm-ana", asker: "ana" });
    await t.db.$client.execute("DELETE FROM users WHERE id = 'ana'");
    expect(await outcome(() => request({ channel: "dm-ana", asker: "ana" }))).toBe("404 asker_not_member");
  });
});

describe("the budget", () => {
  const answer = (size: number): KeptRecall => ({ answer: new Uint8Array(size) as RecallAnswer, factSeqs: [] });

  it("drops the least recently used answers first", () => {
    const entry = 100 + 2 * "a".length + 512; // bytes, as keep() counts them
    const small = new RecallCache(3 * entry);
    small.keep("a", "1", answer(100));
    small.keep("b", "1", answer(100));
    small.keep("c", "1", answer(100));
    small.get("a", "1"); // a is now more recent than b
    small.keep("d", "1", answer(100));
    expect(small.get("b", "1")).toBeUndefined();
    expect(small.get("a", "1")).toBeDefined();
    expect(small.get("d", "1")).toBeDefined();
  });

  it("keeps nothing at 0, and nothing bigger than itself", () => {
    const none = new RecallCache(0);
    none.keep("a", "1", answer(1));
    expect(none.size).toBe(0);
    const tiny = new RecallCache(100);
    tiny.keep("a", "1", answer(1000));
    expect(tiny.size).toBe(0);
  });

  it("forgets an answer whose version moved on", () => {
    const kept = new RecallCache(10_000);
    kept.keep("a", "1.0", answer(10));
    expect(kept.get("a", "1.1")).toBeUndefined();
    expect(kept.size).toBe(0);
  });
});

// Any sequence of writers' changes, by plain SQL so no app code can be relied on to
// invalidate: after each one, every place answers through the cache exactly as a
// fresh recall would (or refuses the same way).
const CHANGES = [
  "UPDATE facts SET pinned = 1 - pinned WHERE id = (SELECT id FROM facts WHERE agent_id = 'scout' ORDER BY seq LIMIT 1 OFFSET ?)",
  "UPDATE facts SET forgotten_at = CASE WHEN forgotten_at IS NULL THEN '2026-01-01T00:00:00.000Z' END WHERE id = (SELECT id FROM facts WHERE agent_id = 'scout' ORDER BY seq LIMIT 1 OFFSET ?)",
  "UPDATE facts SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+' || ? || ' seconds') WHERE agent_id = 'scout' AND seq = (SELECT min(seq) FROM facts WHERE agent_id = 'scout')",
  "DELETE FROM facts WHERE id = (SELECT id FROM facts WHERE agent_id = 'scout' ORDER BY seq LIMIT 1 OFFSET ?)",
  "UPDATE channels SET kind = CASE kind WHEN 'public' THEN 'private' WHEN 'private' THEN 'public' ELSE kind END WHERE rowid = 1 + ? % 7",
  "DELETE FROM channel_members WHERE rowid = (SELECT rowid FROM channel_members ORDER BY rowid LIMIT 1 OFFSET ?)",
  "INSERT OR IGNORE INTO channel_members (channel_id, workspace_id, user_id) SELECT c.id, 'acme', m.user_id FROM channels c, memberships m WHERE c.workspace_id = 'acme' AND m.workspace_id = 'acme' ORDER BY c.id, m.user_id LIMIT 1 OFFSET ?",
  "DELETE FROM memberships WHERE workspace_id = 'acme' AND role = 'member' AND user_id = (SELECT user_id FROM memberships WHERE workspace_id = 'acme' AND role = 'member' ORDER BY user_id LIMIT 1 OFFSET ?)",
];
const PLACES: RecallInput[] = [
  ...["general", "support", "leadership", "dm-ana", "dm-max", "dm-gus", "group-max-ana"].flatMap((channel) =>
    [undefined, "olivia", "max", "ana", "gus"].map((asker) => ({ channel, asker })),
  ),
];

const fresh = (input: RecallInput, agent: AgentContext) => outcome(() => recallForAgent(t.db, agent, input));
const throughCache = (input: RecallInput) => outcome(async () => recallOutputOf(await request(input)));

describe("whatever changes", () => {
  it("every place answers through the cache as a fresh recall does", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: 0, max: CHANGES.length - 1 }), fc.nat(9)), { minLength: 1, maxLength: 6 }),
        async (changes) => {
          t.close();
          t = await createDemoTempDb({ scout: SCOUT_KEY, echo: ECHO_KEY });
          cache = new RecallCache(64 * 2 ** 20);
          for (const input of PLACES) await throughCache(input); // fill the cache
          for (const [change, n] of changes) {
            await t.db.$client.execute({ sql: CHANGES[change], args: [n] });
            const agent = await admit(SCOUT_KEY);
            for (const input of PLACES) expect(await throughCache(input)).toEqual(await fresh(input, agent));
          }
        },
      ),
      // Over a libSQL server (the remote suite) fewer sequences: each is ~1,500 round trips; the file run keeps 25.
      { numRuns: REMOTE_TESTS ? 6 : 25 },
    );
  }, 120_000);
});
