/**
 * Values worked out from a fact's row — its wire JSON (wire.ts), its prompt line's size
 * (token-budget.ts) — kept on the row object itself, but only on a row that recall
 * keeps and has room for them (recall-candidates.ts marks it with keepMemos). Together
 * they cost more memory than the row (~800 bytes against ~640): kept on every kept row,
 * at a million facts they took the room of rows that were then read again (BENCHMARKS.md).
 * Any other row works each value out when asked; an answer asks once per fact.
 * Not in a WeakMap: each entry there is an ephemeron that the collector revisits at
 * every young collection, and at a million facts, where recall reads most rows afresh,
 * those pauses were ~30 % longer for it (BENCHMARKS.md). Not enumerable, so a copy of a
 * row (`{ ...fact, body }`) never carries a value worked out from the row it was copied from.
 */
const KEEPS_MEMOS = Symbol("keepsMemos");

type Memos = Record<symbol, unknown>;

/** Whether rowMemo keeps values on this row. */
export const keepsMemos = (row: object): boolean => !!(row as Memos)[KEEPS_MEMOS];

export function rowMemo<T>(row: object, key: symbol, make: () => T): T {
  if (!keepsMemos(row)) return make();
  const kept = (row as Memos)[key] as T | undefined;
  if (kept !== undefined) return kept;
  const value = make();
  Object.defineProperty(row, key, { value });
  return value;
}

/** From now on rowMemo keeps values on this row; false if it could not (a frozen row) or already did. */
export function keepMemos(row: object): boolean {
  if (keepsMemos(row) || !Object.isExtensible(row)) return false;
  Object.defineProperty(row, KEEPS_MEMOS, { value: true });
  return true;
}
