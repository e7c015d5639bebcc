/**
 * The database floor, in this process: the app's recall path (derivePlace +
 * recall, as the route calls them) per call, next to a bare prepared statement
 * on the `libsql` driver reading the same rows (no ORM, no mapping, no place).
 */
import Database from "libsql";
import { openDatabase } from "@/db/client";
import { derivePlace } from "@/lib/memory/place";
import { utcDay } from "@/lib/memory/rules";
import { RECALL_SQL, branchArgs, recall, recallBranches } from "@/lib/memory/store";
import type { BenchData } from "./generate";

export type InProcessResult = { calls: number; appUs: number; bareUs: number; ratio: number };

// The very statement recall runs (its branches' rules included: scope, not forgotten, unexpired, not a
// proposal), so the ratio is the app's cost around it, not a difference in the SQL.
const RECALL_SQL_3 = RECALL_SQL.threeScopes;
const RECALL_SQL_2 = RECALL_SQL.twoScopes;

type Call = { agentId: string; workspaceId: string; channel: string; asker: string | null };

export async function measureInProcess(url: string, file: string, data: BenchData, seconds: number): Promise<InProcessResult> {
  const db = await openDatabase(url);
  // One day for both sides, as a request judges expiry once.
  const today = utcDay();
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
    const branches = recallBranches(place);
    const args = branches.flatMap((branch) => branchArgs(c.agentId, c.workspaceId, branch, today));
    bareCalls.push({ stmt: branches.length === 3 ? three : two, args });
  }

  const timeApp = async (n: number) => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      const c = calls[i % calls.length];
      const { place } = await derivePlace(db, c.workspaceId, c.channel, c.asker);
      await recall(db, c.agentId, place, today);
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
