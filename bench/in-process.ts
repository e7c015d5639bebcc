/**
 * The database floor, in this process: the app's recall path (derivePlace +
 * recall, as the route calls them) per call, next to a bare prepared statement
 * on the `libsql` driver reading the same rows (no ORM, no mapping, no place).
 */
import Database from "libsql";
import { openDatabase } from "@/db/client";
import { derivePlace } from "@/lib/memory/place";
import { RECALL_LIMIT, soloPerson } from "@/lib/memory/rules";
import { recall } from "@/lib/memory/store";
import type { BenchData } from "./generate";

export type InProcessResult = { calls: number; appUs: number; bareUs: number; ratio: number };

const BRANCH = `SELECT * FROM (SELECT id, agent_id, workspace_id, scope, scope_ref, scope_label, body, source_kind,
  source_ref, source_label, source_channel_id, created_by, created_by_kind, pinned, corrected_at, version,
  created_at, updated_at, forgotten_at FROM facts
  WHERE agent_id = ? AND scope = ? AND scope_ref = ? AND forgotten_at IS NULL AND workspace_id = ?
  ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ${RECALL_LIMIT})`;
const ORDER = ` ORDER BY pinned DESC, updated_at DESC, id DESC LIMIT ${RECALL_LIMIT}`;
export const RECALL_SQL_3 = [BRANCH, BRANCH, BRANCH].join(" UNION ALL ") + ORDER;
const RECALL_SQL_2 = [BRANCH, BRANCH].join(" UNION ALL ") + ORDER;

type Call = { agentId: string; workspaceId: string; channel: string; asker: string | null };

export async function measureInProcess(url: string, file: string, data: BenchData, seconds: number): Promise<InProcessResult> {
  const db = await openDatabase(url);
  const calls: Call[] = data.recallers.flatMap(({ agent, places }) =>
    places.map((p) => ({ agentId: agent.id, workspaceId: agent.workspaceId, channel: p.channel, asker: p.asker })),
  );
  // The bare statement's arguments, from the place each call derives (worked out before timing).
  const bare = new Database(file, { readonly: true });
  const three = bare.prepare(RECALL_SQL_3).raw(true);
  const two = bare.prepare(RECALL_SQL_2).raw(true);
  const bareCalls: { stmt: typeof three; args: string[] }[] = [];
  for (const c of calls) {
    const { place } = await derivePlace(db, c.workspaceId, c.channel, c.asker);
    const args = [c.agentId, "workspace", "", c.workspaceId, c.agentId, "channel", c.channel, c.workspaceId];
    const person = soloPerson(place);
    bareCalls.push(person ? { stmt: three, args: [...args, c.agentId, "person", person, c.workspaceId] } : { stmt: two, args });
  }

  const timeApp = async (n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      const c = calls[i % calls.length];
      const { place } = await derivePlace(db, c.workspaceId, c.channel, c.asker);
      await recall(db, c.agentId, place);
    }
    return performance.now() - t;
  };
  const timeBare = (n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      const b = bareCalls[i % bareCalls.length];
      b.stmt.all(...b.args);
    }
    return performance.now() - t;
  };
  await timeApp(500);
  timeBare(500);
  // Size the run from a short probe so each side takes about `seconds / 2`.
  const probe = await timeApp(500);
  const n = Math.max(1000, Math.round(((seconds / 2) * 1000 * 500) / probe));
  const app = await timeApp(n);
  const bareMs = timeBare(n);
  db.$client.close();
  bare.close();
  const appUs = (app / n) * 1000;
  const bareUs = (bareMs / n) * 1000;
  return { calls: n, appUs: Math.round(appUs), bareUs: Math.round(bareUs), ratio: Math.round((appUs / bareUs) * 100) / 100 };
}
