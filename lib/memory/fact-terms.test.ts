/**
 * Ranked recall's postings (fact_terms, drizzle/0015) follow every write: after any
 * sequence of the app's writes — remember, correct, forget, restore, purge, a new
 * last day, a channel renamed, a proposal approved — the postings are exactly those
 * factTerms() gives each live fact, in its branch, with its last day and proposal
 * flag, and nothing else. Also: the backfill on start, and the plans of the
 * triggers' statements (seeks, never scans).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { facts } from "@/db/schema";
import { checkFactTerms } from "@/db/check";
import { fillFactTerms } from "@/db/migrate";
import { renameChannel } from "@/lib/admin/channels";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { factTerms } from "./terms";
import {
  correctFact,
  forgetFact,
  purgeFact,
  remember,
  restoreFact,
  setValidUntil,
  type PersonActor,
} from "./writes";

const OLIVIA: PersonActor = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };
const SCOUT = { kind: "agent" as const, id: "scout", name: "Scout" };

const t = tempDbForTests({ demo: true, each: true });

type Posting = { key: string; tf: number; length: number; validUntil: string | null; proposed: number };

/** Every posting in the file, keyed "agent scope ref term seq". */
async function postings(db: Db): Promise<Map<string, Posting>> {
  const { rows } = await db.$client.execute(`SELECT b.agent_id, b.workspace_id, b.scope, b.scope_ref, p.term, p.fact_seq, p.tf, p.len,
      p.valid_until, p.proposed FROM fact_terms p JOIN recall_branches b ON b.id = p.branch`);
  return new Map(
    rows.map((row) => {
      const key = [row.agent_id, row.workspace_id, row.scope, row.scope_ref, row.term, row.fact_seq].join(" ");
      const posting = { key, tf: Number(row.tf), length: Number(row.len), validUntil: row.valid_until as string | null, proposed: Number(row.proposed) };
      return [key, posting];
    }),
  );
}

/** What the postings should be: each live fact's factTerms() (recomputed here, not read from the row), and its length row ''. */
async function expected(db: Db): Promise<Map<string, Posting>> {
  const rows = await db.select().from(facts);
  const want = new Map<string, Posting>();
  for (const fact of rows) {
    if (fact.forgottenAt) continue;
    const terms = JSON.parse(factTerms(fact.body, fact.scopeLabel, fact.sourceLabel)) as Record<string, number>;
    const length = Object.values(terms).reduce((sum, tf) => sum + tf, 0);
    const add = (term: string, tf: number) => {
      const key = [fact.agentId, fact.workspaceId, fact.scope, fact.scopeRef, term, fact.seq].join(" ");
      want.set(key, { key, tf, length, validUntil: fact.validUntil, proposed: fact.proposedAt ? 1 : 0 });
    };
    for (const [term, tf] of Object.entries(terms)) add(term, tf);
    add("", length);
  }
  return want;
}

async function expectPostingsFollow(db: Db) {
  const [have, want] = [await postings(db), await expected(db)];
  expect([...have.values()].sort((a, b) => a.key.localeCompare(b.key))).toEqual(
    [...want.values()].sort((a, b) => a.key.localeCompare(b.key)),
  );
}

const BODIES = [
  "Releases go out on Thursdays.",
  "Refunds over $500 need a manager's approval.",
  "Ana prefers replies in Portuguese.",
  "The café in Zürich opens at 8.",
  "Support answers within 1,000 minutes, constructor of toString.",
  "Deploys freeze in October.",
];
const CHANNELS = ["general", "support", "leadership"];
const DAYS = [null, "2000-01-01", "2999-12-31"];

type Op =
  | { kind: "remember"; body: number; channel: number | null; by: "agent" | "person"; until: number; proposal: boolean }
  | { kind: "correct" | "forget" | "restore" | "purge" | "approve"; fact: number; body: number }
  | { kind: "until"; fact: number; until: number }
  | { kind: "rename"; channel: number; name: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("remember" as const), body: fc.nat(BODIES.length - 1), channel: fc.option(fc.nat(CHANNELS.length - 1), { nil: null }), by: fc.constantFrom("agent" as const, "person" as const), until: fc.nat(DAYS.length - 1), proposal: fc.boolean() }) },
  fc.record({ kind: fc.constantFrom("correct" as const, "forget" as const, "restore" as const, "purge" as const, "approve" as const), fact: fc.nat(), body: fc.nat(BODIES.length - 1) }),
  fc.record({ kind: fc.constant("until" as const), fact: fc.nat(), until: fc.nat(DAYS.length - 1) }),
  fc.record({ kind: fc.constant("rename" as const), channel: fc.nat(CHANNELS.length - 1), name: fc.nat(3) }),
);

async function apply(db: Db, step: Op, i: number) {
  if (step.kind === "remember") {
    const channel = step.channel === null ? null : CHANNELS[step.channel];
    await remember(db, {
      agentId: "scout",
      workspaceId: "acme",
      body: `${BODIES[step.body]} (${i})`,
      scope: channel ? "channel" : "workspace",
      scopeRef: channel ?? "",
      scopeLabel: channel ? `#${channel}` : null,
      source: step.by === "agent"
        ? { kind: "message", ref: null, label: `@ana in #${channel ?? "general"}`, channelId: channel }
        : { kind: "person", ref: "olivia", label: "@olivia", channelId: null },
      by: step.by === "agent" ? SCOUT : { kind: "user", id: "olivia", name: "Olivia Owen" },
      pinned: step.by === "person",
      validUntil: DAYS[step.until],
      ...(step.proposal ? { proposal: "setting" as const } : {}),
    });
    return;
  }
  if (step.kind === "rename") {
    const [channel] = await db.$client.execute({ sql: "SELECT name FROM channels WHERE id = ?", args: [CHANNELS[step.channel]] }).then((r) => r.rows);
    await renameChannel(db, { id: "olivia", name: "Olivia Owen" }, "acme", CHANNELS[step.channel], `${channel.name}-${step.name}`);
    return;
  }
  const all = await db.select().from(facts).where(eq(facts.agentId, "scout"));
  const fact = all[step.fact % all.length];
  if (!fact) return;
  if (step.kind === "correct") await correctFact(db, OLIVIA, "scout", fact.id, fact.version, `${BODIES[step.body]} [${i}]`);
  else if (step.kind === "forget") await forgetFact(db, OLIVIA, "scout", fact.id);
  else if (step.kind === "restore") await restoreFact(db, OLIVIA, "scout", fact.id);
  else if (step.kind === "purge") await purgeFact(db, OLIVIA, "scout", fact.id);
  else if (step.kind === "until") await setValidUntil(db, OLIVIA, "scout", fact.id, DAYS[step.until]);
  // Approving a proposal, as the Inbox does it: proposed_at cleared.
  else await db.update(facts).set({ proposedAt: null, proposalReason: null }).where(eq(facts.id, fact.id));
}

describe("postings follow every write", () => {
  it("the demo's facts have their postings from the start", async () => {
    await expectPostingsFollow(t.db);
    const [{ n }] = (await t.db.$client.execute("SELECT count(*) AS n FROM fact_terms WHERE term = ''")).rows;
    const [{ live }] = (await t.db.$client.execute("SELECT count(*) AS live FROM facts WHERE forgotten_at IS NULL")).rows;
    expect(Number(n)).toBe(Number(live));
  });

  it("after random writes, the postings are exactly each live fact's terms", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (steps) => {
        for (const [i, step] of steps.entries()) await apply(t.db, step, i);
        await expectPostingsFollow(t.db);
      }),
      { numRuns: 25 },
    );
  });

  it("a body changed in plain SQL without its terms loses its postings (never found by what it used to say) until the fill", async () => {
    await t.db.$client.execute("UPDATE facts SET body = 'Store credit replaces cash returns.' WHERE body LIKE 'Refunds over%'");
    const [row] = (await t.db.$client.execute("SELECT seq, terms FROM facts WHERE body LIKE 'Store credit%'")).rows;
    expect(row.terms).toBeNull();
    const [{ n }] = (await t.db.$client.execute({ sql: "SELECT count(*) AS n FROM fact_terms WHERE fact_seq = ?", args: [row.seq] })).rows;
    expect(Number(n)).toBe(0);
    expect(await fillFactTerms(t.db)).toBe(1);
    await expectPostingsFollow(t.db);
  });

  it("a new text or label with the same words keeps the fact's postings: a correction of punctuation, a rename to a look-alike name", async () => {
    const refunds = async () => (await t.db.select().from(facts).where(eq(facts.agentId, "scout"))).find((f) => f.body.startsWith("Refunds over"))!;
    // The first correction makes Olivia the source (new words); the second changes punctuation only.
    for (const text of ["Refunds over $500 need a manager's approval", "Refunds over $500 need a manager's approval!"]) {
      const fact = await refunds();
      expect(await correctFact(t.db, OLIVIA, "scout", fact.id, fact.version, text)).toMatchObject({ status: "corrected" });
    }
    expect((await refunds()).terms).not.toBeNull();
    await expectPostingsFollow(t.db);
    // "#support-" reads as the same word as "#support".
    expect(await renameChannel(t.db, { id: "olivia", name: "Olivia Owen" }, "acme", "support", "support-")).toEqual({ status: "changed" });
    expect((await refunds()).scopeLabel).toBe("#support-");
    expect((await refunds()).terms).not.toBeNull();
    await expectPostingsFollow(t.db);
  });

  it("a fact deleted with its agent takes its postings along", async () => {
    await t.db.$client.execute("DELETE FROM agents WHERE id = 'scout'");
    await expectPostingsFollow(t.db);
    const [{ n }] = (await t.db.$client.execute("SELECT count(*) AS n FROM fact_terms p JOIN recall_branches b ON b.id = p.branch WHERE b.agent_id = 'scout'")).rows;
    expect(Number(n)).toBe(0);
  });

  it("facts older than the column get their terms on start, and their postings with them", async () => {
    await t.db.$client.execute("UPDATE facts SET terms = NULL");
    expect((await postings(t.db)).size).toBe(0);
    const [{ n }] = (await t.db.$client.execute("SELECT count(*) AS n FROM facts")).rows;
    expect(await checkFactTerms(t.db.$client)).toMatchObject({ ok: false, detail: `${n} fact(s) without terms: filled on the next start` });
    expect(await fillFactTerms(t.db)).toBe(Number(n));
    await expectPostingsFollow(t.db);
    expect(await fillFactTerms(t.db)).toBe(0);
    expect(await checkFactTerms(t.db.$client)).toMatchObject({ ok: true });
  });
});

describe("the triggers' plans", () => {
  it("every statement of the triggers is a seek, never a scan of facts or postings", async () => {
    const { rows } = await t.db.$client.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'facts_terms_%'");
    expect(rows).toHaveLength(4);
    const statements = rows.flatMap((row) =>
      String(row.sql)
        .replace(/^[\s\S]*?\bBEGIN\b/, "")
        .replace(/END\s*$/, "")
        .split(";")
        .map((text) => text.trim())
        .filter(Boolean),
    );
    const seq = 1;
    const terms = '{"releas":1}';
    for (const statement of statements) {
      const sql = statement
        .replace(/\b(new|old)\.terms\b/g, `'${terms}'`)
        .replace(/\b(new|old)\.seq\b/g, String(seq))
        .replace(/\b(new|old)\.(agent_id|workspace_id|scope|scope_ref|valid_until|proposed_at|forgotten_at)\b/g, "'x'");
      const plan = (await t.db.$client.execute(`EXPLAIN QUERY PLAN ${sql}`)).rows.map((row) => String(row.detail));
      if (process.env.SHOW_PLANS) console.log(sql, plan);
      for (const step of plan) expect(step, `${sql}\n${plan.join("\n")}`).not.toMatch(/^SCAN (facts|fact_terms|recall_branches)\b/);
    }
  });
});
