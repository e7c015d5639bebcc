/**
 * What a process keeps of what recall worked out — answers (lib/api/recall-cache.ts)
 * and places' vocabularies (recall-candidates.ts) — each entry tagged with the versions it
 * was made at and used only while they are unchanged, within a budget of bytes;
 * the least recently used entries leave first. Kept apart per database: two files
 * may hold the same agent at the same version (a restore, two test databases).
 */
import type { Conn } from "@/db/client";

type Entry<V> = { version: string; value: V; bytes: number };

export class VersionedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private bytes = 0;
  /**
   * Where eviction goes on from: the oldest entries are the first in the map's order (a
   * use moves an entry to its end). A fresh iterator each time would step again over
   * every slot that earlier evictions and uses emptied at the map's front until the map
   * compacts — twelve times the cost of a set when a full cache turns over.
   */
  private oldest: MapIterator<[string, Entry<V>]> | null = null;

  constructor(private readonly budgetBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value kept for `key`, if it was made at exactly `version`. */
  get(key: string, version: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.bytes;
      return undefined;
    }
    this.entries.set(key, entry); // now the most recently used
    return entry.value;
  }

  /** Keeps `value`, said to cost `bytes`; one larger than the whole budget is not kept. */
  set(key: string, version: string, value: V, bytes: number): void {
    if (bytes > this.budgetBytes) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.bytes;
    }
    this.entries.set(key, { version, value, bytes });
    this.bytes += bytes;
    while (this.bytes > this.budgetBytes) {
      let next = this.oldest?.next();
      if (!next || next.done) next = (this.oldest = this.entries.entries()).next();
      // Never done here: the entry just set is in the map, and alone it fits the budget.
      const [oldest, entry] = next.value!;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes;
    }
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
