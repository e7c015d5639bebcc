import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VersionedCache } from "./versioned-cache";

describe("VersionedCache", () => {
  it("gives a value only at the version it was kept at", () => {
    const cache = new VersionedCache<string>(100);
    cache.set("a", "v1", "one", 10);
    expect(cache.get("a", "v1")).toBe("one");
    expect(cache.get("a", "v2")).toBeUndefined();
    // A stale entry leaves: asked again at its own version, it is gone.
    expect(cache.get("a", "v1")).toBeUndefined();
  });

  it("lets the least recently used leave first, a use counting as recent, and keeps within its budget", () => {
    const cache = new VersionedCache<number>(30);
    cache.set("a", "v", 1, 10);
    cache.set("b", "v", 2, 10);
    cache.set("c", "v", 3, 10);
    expect(cache.get("a", "v")).toBe(1); // a is now the most recent
    cache.set("d", "v", 4, 10); // b, the oldest, leaves
    expect(cache.get("b", "v")).toBeUndefined();
    expect([cache.get("a", "v"), cache.get("c", "v"), cache.get("d", "v")]).toEqual([1, 3, 4]);
    cache.set("e", "v", 5, 25); // needs room for 25: a and c leave (d was used last)
    expect(cache.size).toBe(1);
    expect(cache.get("e", "v")).toBe(5);
    cache.set("f", "v", 6, 31); // larger than the whole budget: not kept, nothing leaves
    expect(cache.get("f", "v")).toBeUndefined();
    expect(cache.get("e", "v")).toBe(5);
  });

  it("drops a key's old value when its new one is larger than the whole budget, rather than count it at its old size", () => {
    const cache = new VersionedCache<number[]>(100);
    const grown = [1];
    cache.set("a", "v", grown, 10);
    grown.push(2); // its holder grew it, and says so
    cache.set("a", "v", grown, 101);
    expect(cache.get("a", "v")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("tells how long a newcomer would stay unused: forever while it fits, else as long as the oldest has gone unused", () => {
    let now = 0;
    const cache = new VersionedCache<number>(30, () => now);
    cache.set("a", "v", 1, 10);
    now = 5;
    cache.set("b", "v", 2, 10);
    expect(cache.keepsFor(10)).toBe(Infinity); // room for it
    expect(cache.keepsFor(31)).toBe(0); // larger than the budget: never kept
    now = 8;
    expect(cache.keepsFor(11)).toBe(8); // a would leave: unused since 0
    cache.get("a", "v"); // a used at 8: b is now the oldest, unused since 5
    now = 20;
    expect(cache.keepsFor(11)).toBe(15);
    expect(cache.keepsFor(11, 4)).toBeLessThan(0); // judged from before b's last use: it counts as in use
    // Room for 25 means pushing out b and then a: as long as a, the more recently used of them, has gone unused.
    expect(cache.keepsFor(25)).toBe(12);
  });

  it("behaves as a plain least-recently-used list through any run of sets and gets", () => {
    type Step = { set: boolean; key: number; version: number; bytes: number };
    const step = fc.record({ set: fc.boolean(), key: fc.nat(12), version: fc.nat(2), bytes: fc.integer({ min: 1, max: 110 }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps: Step[]) => {
        const budget = 100;
        const cache = new VersionedCache<number>(budget);
        // The model: entries oldest first.
        let model: { key: string; version: string; value: number; bytes: number }[] = [];
        steps.forEach(({ set, key, version, bytes }, value) => {
          const k = `k${key}`;
          const v = `v${version}`;
          if (set) {
            cache.set(k, v, value, bytes);
            model = model.filter((entry) => entry.key !== k);
            if (bytes > budget) return;
            model.push({ key: k, version: v, value, bytes });
            while (model.reduce((sum, entry) => sum + entry.bytes, 0) > budget) model.shift();
          } else {
            const found = model.find((entry) => entry.key === k);
            model = model.filter((entry) => entry.key !== k);
            const expected = found?.version === v ? found.value : undefined;
            if (found && found.version === v) model.push(found);
            expect(cache.get(k, v)).toBe(expected);
          }
          expect(cache.size).toBe(model.length);
        });
      }),
      { seed: 14, numRuns: 300 },
    );
  });
});
