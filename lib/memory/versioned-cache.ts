/**
 * What a process keeps of what recall worked out — answers (lib/api/recall-cache.ts)
 * and places' vocabularies (recall-candidates.ts) — each entry tagged with the versions it
 * was made at and used only while they are unchanged, within a budget of bytes;
 * the least recently used entries leave first. Kept apart per database: two files
 * may hold the same agent at the same version (a restore, two test databases).
 */
import type { Conn } from "@/db/client";

/** An entry in the list of uses, oldest first: a use moves it to the end, eviction takes the head. */
type Entry<V> = {
  key: string;
  version: string;
  value: V;
  bytes: number;
  /** When it was last set or used (the cache's clock, ms). */
  usedAt: number;
  older: Entry<V> | null;
  newer: Entry<V> | null;
};

/**
 * A doubly linked list beside the map rather than the map's own order: evicting from
 * the front of a Map steps over every slot earlier deletes emptied (twelve times the
 * cost of a set when a full cache turns over), and a Map iterator kept to avoid that
 * holds the map's old storage alive.
 */
export class VersionedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  private oldest: Entry<V> | null = null;
  private newest: Entry<V> | null = null;

  constructor(
    private readonly budgetBytes: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value kept for `key`, if it was made at exactly `version`. */
  get(key: string, version: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== version) {
      this.remove(entry);
      return undefined;
    }
    // Now the most recently used.
    this.unlink(entry);
    this.append(entry);
    entry.usedAt = this.now();
    return entry.value;
  }

  /**
   * How long a value of `bytes` set now would likely stay kept while unused (ms): not
   * at all if it is larger than the budget; forever while it fits beside what is kept;
   * else about as long as the entries it would push out have gone unused (the most
   * recently used of them, the last to leave). A value asked for less often than that
   * is pushed out before it is used again — where more is asked for in turn than the
   * budget holds, each newcomer would push out one still in use, and none would ever be
   * used twice (least recently used's weakness in a cycle). `at`: the time to judge
   * from (this cache's clock), now by default; an entry used since then counts as in use.
   */
  keepsFor(bytes: number, at: number = this.now()): number {
    if (bytes > this.budgetBytes) return 0; // never kept at all
    let room = this.budgetBytes - this.bytes;
    let leaving = this.oldest;
    if (room >= bytes || !leaving) return Infinity;
    // Oldest first, as set() would push them out, until the newcomer fits.
    for (room += leaving.bytes; room < bytes && leaving.newer; room += leaving.bytes) leaving = leaving.newer;
    return at - leaving.usedAt;
  }

  /** Keeps `value`, said to cost `bytes`; one larger than the whole budget is not kept. */
  set(key: string, version: string, value: V, bytes: number): void {
    // The old value goes either way: kept, it would be counted at its old size while its holder may have grown it.
    const old = this.entries.get(key);
    if (old) this.remove(old);
    if (bytes > this.budgetBytes) return;
    const entry: Entry<V> = { key, version, value, bytes, usedAt: this.now(), older: null, newer: null };
    this.entries.set(key, entry);
    this.append(entry);
    this.bytes += bytes;
    // Never the entry just set: alone it fits the budget.
    while (this.bytes > this.budgetBytes && this.oldest) this.remove(this.oldest);
  }

  private remove(entry: Entry<V>): void {
    this.entries.delete(entry.key);
    this.unlink(entry);
    this.bytes -= entry.bytes;
  }

  private append(entry: Entry<V>): void {
    entry.older = this.newest;
    entry.newer = null;
    if (this.newest) this.newest.newer = entry;
    else this.oldest = entry;
    this.newest = entry;
  }

  private unlink(entry: Entry<V>): void {
    if (entry.older) entry.older.newer = entry.newer;
    else this.oldest = entry.newer;
    if (entry.newer) entry.newer.older = entry.older;
    else this.newest = entry.older;
    entry.older = entry.newer = null;
  }
}

/** The names caches were made under, on globalThis like the caches themselves. */
function keptNames(): Set<string> {
  const shared = globalThis as { mnemoKeptNames?: Set<string> };
  return (shared.mnemoKeptNames ??= new Set());
}

/**
 * Drops everything this process keeps, for every database. Only for rows put back
 * under a running process (the tests' restore): old versions can then return with
 * other data around them, which no running server sees (`mnemo restore` refuses
 * while one runs).
 */
export function dropAllKept(): void {
  const shared = globalThis as unknown as Record<string, unknown>;
  for (const name of keptNames()) delete shared[name];
}

/**
 * This process's cache of one kind for a database, made on first use; on globalThis
 * under `name`, so the REST and MCP routes' copies of a module share it.
 */
export function cacheFor<C extends VersionedCache<unknown>>(name: string, db: Conn, make: () => C): C {
  const shared = globalThis as unknown as Record<string, WeakMap<Conn, C> | undefined>;
  keptNames().add(name);
  const caches = (shared[name] ??= new WeakMap());
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = make()));
  return cache;
}
