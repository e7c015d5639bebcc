/**
 * Every row of every table a request could change, to assert that a refused call
 * changed nothing and to put the seed back after one that changed something. Used
 * by the authorization matrix and the fuzz tests, which share one database across
 * many calls (a fresh file per call would be too slow). Throttles and rate-limit
 * counters are bookkeeping, not data, and a key's "last used" moves on any
 * authenticated call, so neither is compared; nor are the recall versions
 * (agents.memory_version, workspaces.places_version), which triggers move with
 * every change of data — including putting the seed back.
 *
 * The matrix compares and restores thousands of times, so both are made cheap:
 * a comparison is one statement that writes every row as text in SQLite, and a
 * restore inserts each table's rows in one statement (a statement per row was
 * prepared, and compiled facts' triggers, once per row).
 */
import { readOne, type Db } from "@/db/client";
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

/** Every row of every table, each row as its values written as SQL literals: what snapshot returns. */
export type Compared = Record<string, string[]>;

/** Columns left out of comparisons: bookkeeping that moves without any change of data (see above). */
const NOT_COMPARED: Record<string, string[]> = {
  agent_keys: ["last_used_at"],
  agents: ["memory_version"],
  workspaces: ["places_version"],
};

// The comparing statement, per client: made from the tables' columns once (the schema is fixed once migrated).
const comparing = new WeakMap<Db["$client"], Promise<string>>();

async function comparingStatement(db: Db): Promise<string> {
  const results = await db.$client.batch(
    DATA_TABLES.map((table) => `SELECT name FROM pragma_table_info('${table}') ORDER BY cid`),
    "read",
  );
  const tables = DATA_TABLES.map((table, i) => {
    const columns = results[i].rows.map((row) => String(row.name)).filter((name) => !NOT_COMPARED[table]?.includes(name));
    // quote() keeps each value's type (1, 1.0, '1' and X'01' all differ) and escapes quotes, so the text is exact —
    // but it stops a text at its first NUL, so a text holding one is written in hex, marked T.
    const row = columns
      .map((column) => `(CASE WHEN typeof("${column}") = 'text' AND instr(CAST("${column}" AS BLOB), X'00') THEN 'T' || hex("${column}") ELSE quote("${column}") END)`)
      .join(" || ', ' || ");
    return `(SELECT json_group_array(${row} ORDER BY rowid) FROM ${table}) AS ${table}`;
  });
  return `SELECT ${tables.join(", ")}`;
}

/**
 * Every row, for comparing (toEqual): without a key's "last used" or the recall
 * versions; each row one string of its values, in rowid order, read in one
 * statement (one consistent read, one round trip over a libSQL server).
 */
export async function snapshot(db: Db): Promise<Compared> {
  let statement = comparing.get(db.$client);
  if (!statement) comparing.set(db.$client, (statement = comparingStatement(db)));
  // readOne: on a file, a statement prepared once and kept (the client would prepare it for every comparison).
  const row = await readOne<Record<string, string>>(db, await statement, []);
  return Object.fromEntries(DATA_TABLES.map((table) => [table, JSON.parse(row![table]) as string[]]));
}

/** Puts every table back as `rows` holds it, in one write transaction. */
export async function restoreRows(db: Db, rows: Snapshot): Promise<void> {
  const statements = [...DATA_TABLES].reverse().map((table) => `DELETE FROM ${table}`);
  const inserts = DATA_TABLES.flatMap((table) => {
    const all = rows[table];
    if (!all.length) return [];
    const columns = Object.keys(all[0]);
    // Rows in order, so each gets back its place in rowid order; chunks stay under SQLite's 32,766 parameters.
    const perStatement = Math.floor(30_000 / columns.length);
    const chunks = [];
    for (let at = 0; at < all.length; at += perStatement) {
      const chunk = all.slice(at, at + perStatement);
      chunks.push({
        sql: `INSERT INTO ${table} (${columns.join(", ")}) VALUES ${chunk.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ")}`,
        args: chunk.flatMap((row) => columns.map((c) => row[c] as never)),
      });
    }
    return chunks;
  });
  await db.$client.batch([...statements, ...inserts], "write");
  // Putting old rows back can bring old versions back with different data around
  // them, so everything this process keeps for the database goes too (answers,
  // places, postings, rows).
  dropAllKept();
}

/**
 * Restores `seeded` if the data differs from `baseline` (its snapshot); true when it
 * had to. `now`: a snapshot the caller took since the last change, so it is not read again.
 */
export async function resetIfChanged(db: Db, seeded: Snapshot, baseline: Compared, now?: Compared): Promise<boolean> {
  if (JSON.stringify(now ?? (await snapshot(db))) === JSON.stringify(baseline)) return false;
  await restoreRows(db, seeded);
  return true;
}
