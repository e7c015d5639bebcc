/** `npx tsx bench/plan.ts <file>`: the query plan of recall in a solo DM (three branches), for BENCHMARKS.md. */
import Database from "libsql";
import { RECALL_SQL } from "@/lib/memory/store";

const file = process.argv[2] ?? "bench/tmp/facts-100000-v1.db";
const db = new Database(file, { readonly: true });
const args = ["agt_b000000a0", "workspace", "", "ws_b000000", "agt_b000000a0", "channel", "ch_b000000dm0", "ws_b000000"];
const rows = db.prepare(`EXPLAIN QUERY PLAN ${RECALL_SQL.threeScopes}`).all(...args, "agt_b000000a0", "person", "usr_b000000p00", "ws_b000000") as { id: number; parent: number; detail: string }[];
const depth = new Map<number, number>([[0, -1]]);
for (const row of rows) {
  depth.set(row.id, (depth.get(row.parent) ?? 0) + 1);
  console.log(`${"  ".repeat(depth.get(row.id)!)}${row.detail}`);
}
db.close();
