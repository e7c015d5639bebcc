/**
 * One watcher per database in this process, behind every open live stream of a
 * Memory page (…/memory/live). Streams never read the database: the watcher reads,
 * once per interval whatever the number of streams, the versions of the agents
 * being watched (memory_version, bumped by triggers on any change to the agent's
 * facts, and places_version, bumped on any change to channels and memberships —
 * drizzle/0005) together with the session version and membership of the people
 * watching. Because the versions live in the database, a change made by another
 * process on the same file (the CLI, a second server) is seen like our own.
 *
 * A stream learns only that something changed (the new version); the page then
 * reads itself again through the rules. A person signed out everywhere, removed
 * from the workspace, or whose agent is gone has their stream ended on the next tick.
 */
import type { Conn } from "@/db/client";
import { readAll, readOne } from "@/db/client";

/** How often the versions are read: a change reaches an open page within about this plus a render. */
export const LIVE_INTERVAL_MS = 1000;
/** A comment line this often keeps a proxy's idle timeout from cutting the stream. */
export const HEARTBEAT_MS = 15_000;

/** The version a page was shown at: the agent's memory version and its workspace's places version. */
export type LiveVersion = string;

/** A version as it arrives from a browser (Last-Event-ID or `since`), or null when it is not one. */
export function parseVersion(text: string | null | undefined): LiveVersion | null {
  return text && /^\d{1,15}\.\d{1,15}$/.test(text) ? text : null;
}

/** One open stream, as the watcher sees it. */
export type LiveListener = {
  agentId: string;
  workspaceId: string;
  userId: string;
  /** The session version the person's token was issued under. */
  sessionVersion: number;
  /** When the token itself expires (ms since the epoch). */
  expiresAt: number;
  /** The last version this stream's page has (null: not known yet — the first read sets it). */
  seen: LiveVersion | null;
  /** Something this page shows may have changed. */
  changed(version: LiveVersion): void;
  /** The person may no longer open this page: end the stream. */
  ended(): void;
  /** Called on every tick, for the stream's heartbeat. */
  tick?(now: number): void;
};

type Row = { kind: "agent" | "person"; id: string; value: string; workspaceId: string | null };

function placeholders(n: number): string {
  return Array.from({ length: n }, () => "?").join(", ");
}

/** Both in one statement: one read per tick. */
function watchSql(agents: number, people: number): string {
  return `SELECT 'agent' AS kind, a.id AS id, a.memory_version || '.' || w.places_version AS value, NULL AS workspaceId
      FROM agents a JOIN workspaces w ON w.id = a.workspace_id WHERE a.id IN (${placeholders(agents)})
    UNION ALL
    SELECT 'person' AS kind, u.id AS id, CAST(u.session_version AS TEXT) AS value, m.workspace_id AS workspaceId
      FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id IN (${placeholders(people)})`;
}

/** The version of one agent's memory as a page shows it now (read before the page, so no change falls between). */
export async function liveVersionOf(db: Conn, agentId: string): Promise<LiveVersion | null> {
  const row = await readOne<{ version: string }>(
    db,
    `SELECT a.memory_version || '.' || w.places_version AS version FROM agents a JOIN workspaces w ON w.id = a.workspace_id WHERE a.id = ?`,
    [agentId],
  );
  return row?.version ?? null;
}

export class MemoryWatcher {
  private readonly listeners = new Set<LiveListener>();
  private readonly versions = new Map<string, LiveVersion>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  /** How many times the database was read: one per tick, whatever the number of streams. */
  reads = 0;

  constructor(
    private readonly db: Conn,
    /** The interval of its own timer; 0 for none (tests call tick()). */
    private readonly intervalMs: number = LIVE_INTERVAL_MS,
  ) {}

  get size(): number {
    return this.listeners.size;
  }

  /** Starts watching for one stream; the answer stops it. A known version that moved past `seen` is sent at once. */
  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    const known = this.versions.get(listener.agentId);
    if (known !== undefined) this.deliver(listener, known);
    if (this.intervalMs > 0 && !this.timer) {
      this.timer = setInterval(() => void this.tick(), this.intervalMs);
      // Open streams alone do not keep a process alive that is shutting down.
      this.timer.unref?.();
    }
    return () => this.unsubscribe(listener);
  }

  private unsubscribe(listener: LiveListener): void {
    this.listeners.delete(listener);
    if (!this.listeners.size) this.stop();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.versions.clear();
  }

  private deliver(listener: LiveListener, version: LiveVersion): void {
    if (listener.seen === version) return;
    const first = listener.seen === null;
    listener.seen = version;
    // A stream that did not say which version its page has starts from now.
    if (!first) listener.changed(version);
  }

  /** One read of every watched version and person, then each stream told what concerns it. Ticks never overlap. */
  tick(now: number = Date.now()): Promise<void> {
    this.running ??= this.read(now).finally(() => (this.running = null));
    return this.running;
  }

  private async read(now: number): Promise<void> {
    if (!this.listeners.size) return;
    const agents = [...new Set([...this.listeners].map((l) => l.agentId))];
    const people = [...new Set([...this.listeners].map((l) => l.userId))];
    let rows: Row[];
    try {
      this.reads++;
      rows = await readAll<Row>(this.db, watchSql(agents.length, people.length), [...agents, ...people]);
    } catch (error) {
      // A busy or briefly unreachable database: the streams wait for the next tick.
      console.warn("live: the versions could not be read", error);
      return;
    }
    this.versions.clear();
    const sessions = new Map<string, string>();
    for (const row of rows) {
      if (row.kind === "agent") this.versions.set(row.id, row.value);
      else sessions.set(`${row.id}\n${row.workspaceId}`, row.value);
    }
    for (const listener of [...this.listeners]) {
      const version = this.versions.get(listener.agentId);
      const session = sessions.get(`${listener.userId}\n${listener.workspaceId}`);
      if (version === undefined || session !== String(listener.sessionVersion) || now >= listener.expiresAt) {
        this.unsubscribe(listener);
        listener.ended();
        continue;
      }
      this.deliver(listener, version);
      listener.tick?.(now);
    }
  }
}

/** This process's watcher for a database (kept on globalThis: Next may load this module more than once). */
export function watcherFor(db: Conn): MemoryWatcher {
  const shared = globalThis as unknown as { mnemoMemoryWatchers?: WeakMap<Conn, MemoryWatcher> };
  const watchers = (shared.mnemoMemoryWatchers ??= new WeakMap());
  let watcher = watchers.get(db);
  if (!watcher) watchers.set(db, (watcher = new MemoryWatcher(db)));
  return watcher;
}
