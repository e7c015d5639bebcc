/**
 * Recall counts as the app makes them, through the real route handlers on a real
 * libSQL file: every recall served counts each fact in its answer once — REST GET
 * and POST, MCP, a fresh answer or a kept one — a refused recall counts nothing,
 * and after a flush a new client on the file (a restarted server) reads exactly
 * the number of recalls made.
 */
import { describe, expect, it } from "vitest";
import { closeDb } from "@/db";
import { connect, readAll } from "@/db/client";
import { flushUsage } from "@/lib/memory/usage";
import { appDemoDbForFile, DEMO_KEYS } from "@/lib/testing/app-db";
import { dispatch } from "@/lib/testing/route-dispatch";

const BASE = "http://localhost:3000";
const app = appDemoDbForFile();
const auth = { authorization: `Bearer ${DEMO_KEYS.scout}` };

async function restGet(query: string): Promise<{ status: number; ids: string[] }> {
  const response = await dispatch(new Request(`${BASE}/api/v1/recall?${query}`, { headers: auth }));
  const body = (await response.json()) as { facts?: { id: string }[] };
  return { status: response.status, ids: (body.facts ?? []).map((fact) => fact.id) };
}

async function restPost(input: Record<string, unknown>): Promise<string[]> {
  const response = await dispatch(
    new Request(`${BASE}/api/v1/recall`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify(input),
    }),
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { facts: { id: string }[] }).facts.map((fact) => fact.id);
}

async function mcpRecall(args: Record<string, unknown>): Promise<string[]> {
  const response = await dispatch(
    new Request(`${BASE}/api/mcp`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "recall", arguments: args } }),
    }),
  );
  expect(response.status).toBe(200);
  const body = (await response.json()) as { result: { structuredContent: { facts: { id: string }[] } } };
  return body.result.structuredContent.facts.map((fact) => fact.id);
}

describe("served recalls", () => {
  it("each count their facts once, whatever the transport and whether the answer was kept; a restart keeps the counts", async () => {
    const expected = new Map<string, number>();
    const served = (ids: string[]) => {
      for (const id of ids) expected.set(id, (expected.get(id) ?? 0) + 1);
    };
    for (let i = 0; i < 5; i++) {
      // The same place and question again and again: from the second on, the kept answer.
      const answer = await restGet("channel=dm-ana&asker=ana");
      expect(answer.status).toBe(200);
      served(answer.ids);
    }
    for (let i = 0; i < 3; i++) served(await restPost({ channel: "support", asker: "ana", q: "refund approval" }));
    for (let i = 0; i < 4; i++) served(await mcpRecall({ channel: "general", asker: "max", query: "when do releases go out" }));
    // Refused: ana cannot read #leadership. Nothing is served, nothing counts.
    expect((await restGet("channel=leadership&asker=ana")).status).toBe(403);
    expect(expected.size).toBeGreaterThan(3);

    await flushUsage();
    closeDb(); // the server stops; its file stays
    const restarted = connect(app().url);
    try {
      const rows = await readAll<{ factId: string; count: number }>(
        restarted,
        "SELECT facts.id AS factId, u.recalled_count AS count FROM fact_usage u JOIN facts ON facts.seq = u.fact_seq",
        [],
      );
      expect(new Map(rows.map((row) => [row.factId, Number(row.count)]))).toEqual(expected);
    } finally {
      restarted.$client.close();
    }
  });
});
