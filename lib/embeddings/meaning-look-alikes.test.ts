/**
 * Look-alikes by meaning (issue #15): when the embedder stores a new fact's vector,
 * the live facts of the same agent, workspace, scope and place whose vectors are
 * near enough become a pair for the Memory page — never one of another place or
 * agent however near, never a forgotten or expired one. Real libSQL file, real
 * local embeddings server (lib/testing/embeddings-server.ts: "deploy", "release"
 * and "rollout" share a synonym class, so these facts embed at ~0.93).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAll } from "@/db/client";
import { agents } from "@/db/schema";
import { forgetFact, remember, type PersonActor } from "@/lib/memory/writes";
import { startEmbeddingsServer, testVector, type EmbeddingsServer } from "@/lib/testing/embeddings-server";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { MEANING_THRESHOLD, NEAREST_BY_MEANING_STATEMENT } from "@/lib/memory/look-alike-pairs";
import { drainDue } from "./embedder";
import { embeddingsSettings, type EmbeddingsSettings } from "./settings";

const t = tempDbForTests({ demo: true, each: true });
let server: EmbeddingsServer;
let settings: EmbeddingsSettings;
const OLIVIA: PersonActor = { workspaceId: "acme", id: "olivia", name: "Olivia Owen", handle: "olivia" };

beforeAll(async () => {
  server = await startEmbeddingsServer();
  process.env.MNEMO_EMBEDDINGS_URL = server.url;
  process.env.MNEMO_EMBEDDINGS_MODEL = "test-model";
  settings = embeddingsSettings()!;
});
afterAll(async () => {
  delete process.env.MNEMO_EMBEDDINGS_URL;
  delete process.env.MNEMO_EMBEDDINGS_MODEL;
  await server.close();
});

type Where = { agentId?: string; workspaceId?: string; scope?: "workspace" | "channel"; scopeRef?: string };

async function keep(body: string, where: Where = {}): Promise<string> {
  const agentId = where.agentId ?? "scout";
  const result = await remember(t.db, {
    agentId,
    workspaceId: where.workspaceId ?? "acme",
    body,
    scope: where.scope ?? "workspace",
    scopeRef: where.scopeRef ?? "",
    scopeLabel: null,
    source: { kind: "message", ref: null, label: null, channelId: null },
    by: { kind: "agent", id: agentId, name: agentId },
    pinned: false,
  });
  if (result.status !== "created") throw new Error(result.status);
  return result.fact.id;
}

const pairsOf = (id: string) =>
  readAll<{ factId: string; otherId: string; score: number }>(
    t.db,
    "SELECT fact_id AS factId, other_id AS otherId, score FROM fact_look_alikes WHERE fact_id = ? OR other_id = ? ORDER BY fact_id, other_id",
    [id, id],
  );

const cosine = (a: string, b: string) => {
  const [x, y] = [testVector(a), testVector(b)];
  return x.reduce((sum, value, i) => sum + value * y[i], 0);
};

const OLDER = "Deploy on Fridays.";
const NEWER = "Release on Fridays.";
const FORGOTTEN = "Launch on Fridays.";
const EXPIRED = "Rollout on Fridays.";

describe("look-alikes by meaning, when the vector is stored", () => {
  it("the texts are near in meaning for the test server, unrelated text is not", () => {
    for (const other of [OLDER, FORGOTTEN, EXPIRED]) expect(cosine(NEWER, other)).toBeGreaterThanOrEqual(MEANING_THRESHOLD);
    expect(cosine(NEWER, "The office closes at six.")).toBeLessThan(MEANING_THRESHOLD);
  });

  it("pairs a new fact with a near one of its agent, scope and place — not across places or agents, not forgotten or expired ones", async () => {
    await t.db.insert(agents).values({ id: "scribe", handle: "scribe", name: "Scribe", workspaceId: "acme" });
    const older = await keep(OLDER);
    const forgotten = await keep(FORGOTTEN);
    const expired = await keep(EXPIRED);
    expect((await drainDue(t.db, settings)).failed).toBeNull();
    expect((await forgetFact(t.db, OLIVIA, "scout", forgotten)).status).toBe("forgotten");
    await t.db.run(`UPDATE facts SET valid_until = '2000-01-01' WHERE id = '${expired}'`);
    await t.db.run("DELETE FROM fact_look_alikes");

    const newer = await keep(NEWER);
    const elsewhere = await keep(NEWER, { scope: "channel", scopeRef: "support" });
    const otherAgent = await keep(NEWER, { agentId: "scribe" });
    const otherWorkspace = await keep(NEWER, { agentId: "echo", workspaceId: "globex" });
    // By words alone the write found nothing: the pair below is meaning's.
    expect(await pairsOf(newer)).toEqual([]);

    expect((await drainDue(t.db, settings)).failed).toBeNull();
    const pairs = await pairsOf(newer);
    expect(pairs).toEqual([{ factId: newer, otherId: older, score: expect.any(Number) }]);
    expect(pairs[0].score).toBeGreaterThanOrEqual(MEANING_THRESHOLD);
    expect(pairs[0].score).toBeLessThan(1);
    for (const id of [elsewhere, otherAgent, otherWorkspace, forgotten, expired]) expect(await pairsOf(id), id).toEqual([]);
  });

  it("keeps a pair the words found, with its score, and pairs nothing again when a fact is embedded for a new model", async () => {
    const older = await keep("Refunds over $800 need a manager's approval first.");
    const newer = await keep("Refunds over $900 need a manager's approval first.");
    const [byWords] = await pairsOf(newer);
    expect(byWords).toEqual({ factId: newer, otherId: older, score: expect.any(Number) });
    expect(cosine("Refunds over $800 need a manager's approval first.", "Refunds over $900 need a manager's approval first.")).toBeGreaterThanOrEqual(
      MEANING_THRESHOLD,
    );
    expect((await drainDue(t.db, settings)).failed).toBeNull();
    expect(await pairsOf(newer)).toEqual([byWords]);

    // "Keep both" took the pair away; a reindex with another model must not bring it back.
    await t.db.run("DELETE FROM fact_look_alikes");
    await t.db.run("INSERT INTO fact_vectors_due (fact_id) SELECT id FROM facts WHERE forgotten_at IS NULL");
    expect((await drainDue(t.db, { ...settings, model: "other-model" })).failed).toBeNull();
    expect(await pairsOf(newer)).toEqual([]);
  });

  it("reads only the fact's own branch: led by its key, then facts_recall_idx by agent, scope and place", async () => {
    const id = await keep(NEWER);
    const today = "2026-12-01";
    const args = ["test-model", id, today, today, "test-model", 1 - MEANING_THRESHOLD, 3];
    const plan = (await t.db.$client.execute({ sql: `EXPLAIN QUERY PLAN ${NEAREST_BY_MEANING_STATEMENT}`, args })).rows.map((row) =>
      String(row.detail),
    );
    for (const step of plan) expect(step, plan.join("\n")).not.toMatch(/^SCAN/);
    expect(plan.join("\n")).toMatch(/SEARCH facts USING INDEX facts_recall_idx \(agent_id=\? AND scope=\? AND scope_ref=\?\)/);
  });
});
