/**
 * The orders the Memory page lists facts in (issue #17's sort), each with its
 * keyset cursor. Every order ends on the fact's id, so no two facts tie and a
 * walk page by page shows each fact once: the cursor is the last fact's keys,
 * and the next page is what comes strictly after them. An order only sorts the
 * rows the caller's WHERE (visibleSql …) already allows; it adds no condition
 * of its own but the keyset, so it can never widen what a person sees.
 *
 * "Most recalled" pages on a count that agents raise as they work: a fact on a
 * later page whose count climbs past the cursor while someone pages moves to a
 * page already seen. Exact paging would need a snapshot of the counts; reloading
 * the first page shows the order as it is now.
 */
import type { SqlPart } from "@/db/client";

export const FACT_ORDERS = ["newest", "oldest", "recalled"] as const;
/** newest: recall order (pinned first, then newest); oldest: the least recently changed first; recalled: most recalled first. */
export type FactOrder = (typeof FACT_ORDERS)[number];

/** How often agents recalled the fact (lib/memory/usage.ts); no fact_usage row is 0. */
const RECALLED_COUNT_SQL = "coalesce((SELECT u.recalled_count FROM fact_usage u WHERE u.fact_seq = facts.seq), 0)";

// Every key of an order runs the same way, so one row-value comparison is the keyset.
const ORDERS: Record<FactOrder, { keys: string[]; direction: "ASC" | "DESC" }> = {
  newest: { keys: ["facts.pinned", "facts.updated_at", "facts.id"], direction: "DESC" },
  oldest: { keys: ["facts.updated_at", "facts.id"], direction: "ASC" },
  // Among facts recalled as often, the newest first, as on the default page.
  recalled: { keys: [RECALLED_COUNT_SQL, "facts.updated_at", "facts.id"], direction: "DESC" },
};

/** Where a listing resumes: the last shown fact's keys in its order. */
export type Cursor = { order: FactOrder; keys: (string | number)[] };

/** What a cursor is made from: a listed fact (recalledCount only matters to "recalled"). */
export type CursorFact = { pinned: boolean; updatedAt: string; id: string; recalledCount?: number };

function keysOf(fact: CursorFact, order: FactOrder): (string | number)[] {
  switch (order) {
    case "newest":
      return [fact.pinned ? 1 : 0, fact.updatedAt, fact.id];
    case "oldest":
      return [fact.updatedAt, fact.id];
    case "recalled":
      return [fact.recalledCount ?? 0, fact.updatedAt, fact.id];
  }
}

/** The ORDER BY of an order, on `facts`. */
export function orderBySql(order: FactOrder): string {
  const { keys, direction } = ORDERS[order];
  return keys.map((key) => `${key} ${direction}`).join(", ");
}

/**
 * The facts after the cursor in its order (`through`: the cursor's fact and those
 * before it, which is what "26–50 of 92" counts).
 */
export function keysetSql(cursor: Cursor, through = false): SqlPart {
  const { keys, direction } = ORDERS[cursor.order];
  const after = direction === "DESC" ? "<" : ">";
  const before = direction === "DESC" ? ">=" : "<=";
  return {
    text: `(${keys.join(", ")}) ${through ? before : after} (${keys.map(() => "?").join(", ")})`,
    args: cursor.keys,
  };
}

/**
 * A cursor for the URL. "newest" keeps the shape links had before there were
 * orders ([pinned, updatedAt, id]); the others lead with their order's name, so a
 * cursor of one order is never read as another's.
 */
export function encodeCursor(fact: CursorFact, order: FactOrder = "newest"): string {
  const keys = keysOf(fact, order);
  return Buffer.from(JSON.stringify(order === "newest" ? keys : [order, ...keys])).toString("base64url");
}

/** A cursor from a URL for this order, or null when it is not one of ours or of another order (the list starts from the top). */
export function decodeCursor(value: string | null | undefined, order: FactOrder = "newest"): Cursor | null {
  if (!value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const keys: unknown[] = order === "newest" ? parsed : parsed[0] === order ? parsed.slice(1) : [];
  const text = (v: unknown) => typeof v === "string";
  const shapes: Record<FactOrder, ((v: unknown) => boolean)[]> = {
    newest: [(v) => v === 0 || v === 1, text, text],
    oldest: [text, text],
    recalled: [(v) => Number.isSafeInteger(v) && (v as number) >= 0, text, text],
  };
  const shape = shapes[order];
  if (keys.length !== shape.length || !shape.every((valid, i) => valid(keys[i]))) return null;
  return { order, keys: keys as (string | number)[] };
}
