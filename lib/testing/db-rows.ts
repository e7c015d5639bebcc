/**
 * Every row of every table a request could change, to assert that a refused call
 * changed nothing and to put the seed back after one that changed something. Used
 * by the authorization matrix and the fuzz tests, which share one database across
 * many calls (a fresh file per call would be too slow). Throttles and rate-limit
 * counters are bookkeeping, not data, and a key's "last used" moves on any
 * authenticated call, so neither is compared; nor are the recall versions
 * (agents.memory_version, workspaces.places_version), which triggers move with
 * every change of data — including putting the seed back.
 */
import type { Db } from "@/db/client";
import { dropAllKept } from "@/lib/memory/versioned-cache";

/** Parents before children. */
export const DATA_TABLES = [
  "users",
  "workspaces",
  "memberships",
  "channels",
  "channel_members",
  "agents",
  "agent_keys",
  "facts",
  "fact_events",
  "workspace_invites",
  "audit_events",
  "webhook_endpoints",
  "webhook_deliveries",
] as const;

export type Row = Record<string, unknown>;
export type Snapshot = Record<string, Row[]>;

export async function tableRows(db: Db, table: string): Promise<Row[]> {
  const result = await db.$client.execute(`SELECT * FROM ${table} ORDER BY rowid`);
  return result.rows.map((row) => ({ ...row }));
}

/**
 * Every row as stored, every table (raw: for restoring), read in one batch: one
 * consistent read, and one round trip over a libSQL server instead of one per table.
 */
export async function allRows(db: Db): Promise<Snapshot> {
  const results = await db.$client.batch(
    DATA_TABLES.map((table) => `SELECT * FROM ${table} ORDER BY rowid`),
    "read",
  );
  const out: Snapshot = {};
  DATA_TABLES.forEach((table, i) => (out[table] = results[i].rows.map((row) => ({ ...row }))));
  return out;
}

/** Every row, for comparing: without a key's "last used" or the recall versions. */
export async function snapshot(db: Db): Promise<Snapshot> {
  const out = await allRows(db);
  for (const key of out.agent_keys) delete key.last_used_at;
  for (const agent of out.agents) delete agent.memory_version;
  for (const workspace of out.workspaces) delete workspace.places_version;
  return out;
}

/** Puts every table back as `rows` holds it, in one write transaction. */
export async function restoreRows(db: Db, rows: Snapshot): Promise<void> {
  const statements = [...DATA_TABLES].reverse().map((table) => `DELETE FROM ${table}`);
  const inserts = DATA_TABLES.flatMap((table) =>
    rows[table].map((row) => {
      const columns = Object.keys(row);
      return {
        sql: `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`,
        args: columns.map((c) => row[c] as never),
      };
    }),
  );
  await db.$client.batch([...statements, ...inserts], "write");
  // Putting old rows back can bring old versions back with different data around
  // them, so everything this process keeps for the database goes too (answers,
  // places, postings, rows).
  dropAllKept();
}

/** Restores `seeded` if the data differs from `baseline` (its snapshot); true when it had to. */
export async function resetIfChanged(db: Db, seeded: Snapshot, baseline: Snapshot): Promise<boolean> {
  if (JSON.stringify(await snapshot(db)) === JSON.stringify(baseline)) return false;
  await restoreRows(db, seeded);
  return true;
}
