/**
 * Values worked out from a fact's row — its wire JSON (wire.ts), its prompt line's size
 * (token-budget.ts) — kept on the row object itself, for as long as recall keeps the row
 * (recall-candidates.ts). Not in a WeakMap: each entry there is an ephemeron that the
 * collector revisits at every young collection, and at a million facts, where recall
 * reads most rows afresh, those pauses were ~30 % longer for it (BENCHMARKS.md). Not
 * enumerable, so a copy of a row (`{ ...fact, body }`) never carries a value worked out
 * from the row it was copied from.
 */
export function rowMemo<T>(row: object, key: symbol, make: () => T): T {
  const kept = (row as Record<symbol, T | undefined>)[key];
  if (kept !== undefined) return kept;
  const value = make();
  if (Object.isExtensible(row)) Object.defineProperty(row, key, { value });
  return value;
}
