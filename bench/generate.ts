/**
 * Realistic data for the benchmark, written straight into a migrated libSQL file
 * with multi-row INSERTs, many per transaction. Workspaces of people, channels of
 * every kind (public, private, solo and group DMs) with members, agents, and
 * facts of every scope, each agent filled up to the per-agent limit — so a million
 * facts are 500 agents of 2,000 (MAX_FACTS) in 125 workspaces, not one huge memory.
 * Fact texts vary (bench/fact-words.ts), so ranking by a question has words to weigh.
 *
 * Workspace 0 also holds what the measurements need: agents with room for
 * `remember`, an agent with 20 facts for the Memory page, and a person with a
 * known password who can see both.
 */
import { createClient, type Client, type InStatement, type InValue } from "@libsql/client";
import { migrateDatabase } from "@/db/migrate";
import { openDatabase } from "@/db/client";
import { agentKeyPrefix, generateAgentKey, hashAgentKey } from "@/lib/api/agent-keys";
import { hashPassword } from "@/lib/auth/password";
import { dedupeKey } from "@/lib/memory/fact-text";
import { MAX_FACTS } from "@/lib/memory/rules";
import { factTerms } from "@/lib/memory/terms";
import { storedLineSize } from "@/lib/memory/token-budget";
import { factBody } from "./fact-words";

export const BENCH_PASSWORD = "bench-password";
export const BENCH_EMAIL = "reader@bench.test";

const PEOPLE_PER_WORKSPACE = 20;
const PUBLIC_CHANNELS = 6;
const PRIVATE_CHANNELS = 4;
const GROUP_DMS = 4;
/** Solo DMs: one per person of the workspace. */
const AGENTS_PER_WORKSPACE = 4;
const REMEMBER_AGENTS = 16;
const ROWS_PER_INSERT = 400;
const INSERTS_PER_TRANSACTION = 25;

export type Place = { channel: string; asker: string | null; kind: "public" | "private" | "solo-dm" | "group-dm" };
export type BenchAgent = { id: string; handle: string; key: string; workspaceId: string };

export type BenchData = {
  facts: number;
  workspaces: number;
  /** Agents full of facts, each with a key, and the places of their workspace to recall in. */
  recallers: { agent: BenchAgent; places: Place[] }[];
  rememberers: { agent: BenchAgent; places: Place[] }[];
  page: { workspaceId: string; email: string; password: string; full: string; small: string };
};


const pad = (n: number, width = 6) => String(n).padStart(width, "0");

class Writer {
  private pending: InStatement[] = [];
  constructor(private readonly client: Client) {}

  async rows(table: string, columns: string[], values: unknown[][]): Promise<void> {
    for (let i = 0; i < values.length; i += ROWS_PER_INSERT) {
      const chunk = values.slice(i, i + ROWS_PER_INSERT);
      const tuple = `(${columns.map(() => "?").join(",")})`;
      this.pending.push({
        sql: `INSERT INTO ${table} (${columns.join(",")}) VALUES ${chunk.map(() => tuple).join(",")}`,
        args: chunk.flat() as InValue[],
      });
      if (this.pending.length >= INSERTS_PER_TRANSACTION) await this.flush();
    }
  }

  async flush(): Promise<void> {
    if (!this.pending.length) return;
    await this.client.batch(this.pending, "write");
    this.pending = [];
  }
}

const FACT_COLUMNS = [
  "id", "agent_id", "workspace_id", "scope", "scope_ref", "scope_label", "body", "body_key",
  "source_kind", "source_label", "source_channel_id", "created_by", "created_by_kind", "pinned",
  "version", "created_at", "updated_at", "terms", "line_size",
];

/** Fills a migrated file at `url` with about `totalFacts` facts; returns what the measurements need. */
export async function generate(url: string, totalFacts: number): Promise<BenchData> {
  const db = await openDatabase(url);
  await migrateDatabase(db);
  db.$client.close();
  const client = createClient({ url });
  await client.execute("PRAGMA synchronous = OFF");
  const w = new Writer(client);
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const start = Date.parse("2026-01-01T00:00:00Z");
  let clock = 0;
  const at = () => new Date(start + (clock += 1000)).toISOString();

  const agentsNeeded = Math.max(1, Math.ceil(totalFacts / MAX_FACTS));
  const workspaceCount = Math.ceil(agentsNeeded / AGENTS_PER_WORKSPACE);
  const data: BenchData = {
    facts: 0,
    workspaces: workspaceCount,
    recallers: [],
    rememberers: [],
    page: { workspaceId: "", email: BENCH_EMAIL, password: BENCH_PASSWORD, full: "", small: "" },
  };
  let factsLeft = totalFacts;
  let factSeq = 0;

  const keyRows: unknown[][] = [];
  const withKey = (agentId: string, handle: string, workspaceId: string): BenchAgent => {
    const key = generateAgentKey();
    keyRows.push([`key_${agentId}`, agentId, "bench", agentKeyPrefix(key), hashAgentKey(key)]);
    return { id: agentId, handle, key, workspaceId };
  };

  for (let wi = 0; wi < workspaceCount; wi++) {
    const ws = `ws_b${pad(wi)}`;
    await w.rows("workspaces", ["id", "name"], [[ws, `Bench ${wi}`]]);
    const people = Array.from({ length: PEOPLE_PER_WORKSPACE }, (_, i) => `usr_b${pad(wi)}p${pad(i, 2)}`);
    await w.rows(
      "users",
      ["id", "name", "email", "password_hash"],
      people.map((id, i) => [
        id,
        `Person ${i} of ${wi}`,
        wi === 0 && i === 0 ? BENCH_EMAIL : `p${i}.w${wi}@bench.test`,
        wi === 0 && i === 0 ? passwordHash : null,
      ]),
    );
    await w.rows("memberships", ["workspace_id", "user_id", "role"], people.map((id, i) => [ws, id, i === 0 ? "owner" : "member"]));

    const channels: { id: string; name: string; kind: string; members: string[]; place: Place["kind"] }[] = [];
    const pick = (from: number, n: number) => Array.from({ length: n }, (_, i) => people[(from + i) % people.length]);
    for (let i = 0; i < PUBLIC_CHANNELS; i++) channels.push({ id: `ch_b${pad(wi)}pub${i}`, name: `general-${i}`, kind: "public", members: pick(i, 12), place: "public" });
    for (let i = 0; i < PRIVATE_CHANNELS; i++) channels.push({ id: `ch_b${pad(wi)}prv${i}`, name: `team-${i}`, kind: "private", members: pick(i * 3, 5), place: "private" });
    for (let i = 0; i < GROUP_DMS; i++) channels.push({ id: `ch_b${pad(wi)}gdm${i}`, name: `group-dm-${i}`, kind: "dm", members: pick(i * 2, 3), place: "group-dm" });
    people.forEach((person, i) => channels.push({ id: `ch_b${pad(wi)}dm${i}`, name: `dm-${i}`, kind: "dm", members: [person], place: "solo-dm" }));
    await w.rows("channels", ["id", "workspace_id", "name", "kind"], channels.map((c) => [c.id, ws, c.name, c.kind]));
    await w.rows(
      "channel_members",
      ["channel_id", "workspace_id", "user_id"],
      channels.flatMap((c) => c.members.map((m) => [c.id, ws, m])),
    );
    // Places to recall in, each with a member who asks (public channels also without an asker).
    const places: Place[] = channels.map((c, i) => ({
      channel: c.id,
      asker: c.kind === "public" && i % 2 ? null : c.members[0],
      kind: c.place,
    }));

    const agentsHere = Math.min(AGENTS_PER_WORKSPACE, Math.ceil(factsLeft / MAX_FACTS)) || (wi === 0 ? 1 : 0);
    const agentRows: unknown[][] = [];
    const addFacts = async (agentId: string, count: number) => {
      const rows: unknown[][] = [];
      for (let n = 0; n < count; n++) {
        factSeq++;
        const roll = n % 10;
        // 30 % workspace, 50 % channel (spread over every channel), 20 % person.
        const scope = roll < 3 ? "workspace" : roll < 8 ? "channel" : "person";
        const channel = channels[n % channels.length];
        const ref = scope === "workspace" ? "" : scope === "channel" ? channel.id : people[n % people.length];
        const body = factBody(factSeq);
        const when = at();
        const scopeLabel = scope === "channel" ? `#${channel.name}` : scope === "person" ? `Person of ${wi}` : null;
        const sourceLabel = `from #${channel.name}`;
        const id = `fact_b${pad(factSeq, 8)}`;
        const pinned = n % 97 === 0;
        rows.push([
          id, agentId, ws, scope, ref, scopeLabel,
          body, dedupeKey(body), "message", sourceLabel, channel.id,
          // With its terms and its line's size, as the app's writers store them: the triggers make its postings (drizzle/0015).
          agentId, "agent", pinned ? 1 : 0, 1, when, when, factTerms(body, scopeLabel, sourceLabel),
          storedLineSize({ id, scope, body, sourceLabel, pinned }),
        ]);
      }
      data.facts += count;
      await w.rows("facts", FACT_COLUMNS, rows);
    };

    for (let ai = 0; ai < agentsHere; ai++) {
      const id = `agt_b${pad(wi)}a${ai}`;
      agentRows.push([id, ws, `agent-${ai}`, `Agent ${ai}`]);
    }
    if (wi === 0) {
      for (let ri = 0; ri < REMEMBER_AGENTS; ri++) agentRows.push([`agt_b000000r${ri}`, ws, `rem-${ri}`, `Rememberer ${ri}`]);
      agentRows.push(["agt_b000000small", ws, "small", "Small"]);
    }
    await w.rows("agents", ["id", "workspace_id", "handle", "name"], agentRows);

    for (let ai = 0; ai < agentsHere; ai++) {
      const id = `agt_b${pad(wi)}a${ai}`;
      const count = Math.min(MAX_FACTS, factsLeft);
      factsLeft -= count;
      await addFacts(id, count);
      data.recallers.push({ agent: withKey(id, `agent-${ai}`, ws), places });
    }
    if (wi === 0) {
      data.page = { ...data.page, workspaceId: ws, full: "agent-0", small: "small" };
      await addFacts("agt_b000000small", 20);
      for (let ri = 0; ri < REMEMBER_AGENTS; ri++) {
        data.rememberers.push({ agent: withKey(`agt_b000000r${ri}`, `rem-${ri}`, ws), places });
      }
    }
  }
  await w.rows("agent_keys", ["id", "agent_id", "name", "prefix", "hash"], keyRows);
  await w.flush();
  await client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  client.close();
  return data;
}
