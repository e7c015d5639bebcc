/**
 * Values worked out from a key once and kept — a word's stem, a line's token size, an
 * unknown word's neighbours — up to a number of keys; past that the whole list starts
 * again. Not least-recently-used: the keys are a team's words and lines, which recur, so
 * starting again costs one working-out per key still in use, and a lookup stays a
 * single Map get. Unlike VersionedCache, what is kept never goes stale: the value
 * depends on the key alone.
 */
export class KeptValues<K, V> {
  private readonly values = new Map<K, V>();

  constructor(private readonly most: number) {}

  /** The value kept for `key`, else `make(key)` — kept from now on. */
  get(key: K, make: (key: K) => V): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.values.size >= this.most) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
