"use client";

/**
 * Keeps an open Memory page current. It listens to the page's live stream
 * (…/memory/live), which says only "changed", and then refreshes the page
 * through the server (router.refresh): React keeps every client component's
 * state, so focus, what is typed in Add or an open Edit, and the search box stay
 * as they are. Facts that others added or changed since are marked for a while
 * ("New", "Changed by Max") and announced in one polite live region.
 */
import { useRouter } from "next/navigation";
import { createContext, startTransition, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";

/** How long a mark stays on a card. */
const MARK_MS = 10_000;
/** Marks made by one refresh are announced together, after the cards have rendered. */
const ANNOUNCE_DELAY_MS = 300;

type Observed = { id: string; version: number; updatedAt: string; body: string; changedBy?: string | null };

type Live = { observe: (fact: Observed) => void; marks: ReadonlyMap<string, string> };

const LiveContext = createContext<Live | null>(null);

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export function LiveUpdates({
  href,
  since,
  startedAt,
  children,
}: {
  /** The page's live stream. */
  href: string;
  /** The memory version the page was rendered at; the stream says "changed" at once if it moved since. */
  since: string | null;
  /** The server's clock when the page was first rendered: only facts changed after it can be "New". */
  startedAt: number;
  children: React.ReactNode;
}) {
  const router = useRouter();
  // The first render's values: the stream stays open across refreshes and tracks the version itself (Last-Event-ID).
  const [first] = useState(() => ({ since, startedAt }));
  const known = useRef(new Map<string, number>());
  const pending = useRef<string[]>([]);
  const announceTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [marks, setMarks] = useState<ReadonlyMap<string, string>>(() => new Map());
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    const url = first.since ? `${href}?since=${encodeURIComponent(first.since)}` : href;
    const source = new EventSource(url);
    source.addEventListener("changed", () => startTransition(() => router.refresh()));
    // Signed out or no longer a member: the page itself says what to do next.
    source.addEventListener("ended", () => {
      source.close();
      router.refresh();
    });
    return () => source.close();
  }, [href, first, router]);

  useEffect(() => () => clearTimeout(announceTimer.current), []);

  const observe = useCallback(
    (fact: Observed) => {
      const before = known.current.get(fact.id);
      known.current.set(fact.id, fact.version);
      // Only changes by someone else are marked; the person's own are not news to them.
      if (!fact.changedBy || before === fact.version) return;
      const mark = before === undefined ? (Date.parse(fact.updatedAt) > first.startedAt ? "New" : null) : `Changed by ${fact.changedBy}`;
      if (!mark) return;
      setMarks((all) => new Map(all).set(fact.id, mark));
      setTimeout(() => {
        setMarks((all) => {
          if (all.get(fact.id) !== mark) return all;
          const rest = new Map(all);
          rest.delete(fact.id);
          return rest;
        });
      }, MARK_MS);
      pending.current.push(`${mark === "New" ? "New fact" : mark}: ${short(fact.body)}`);
      clearTimeout(announceTimer.current);
      announceTimer.current = setTimeout(() => {
        setAnnouncement(pending.current.join(". "));
        pending.current = [];
      }, ANNOUNCE_DELAY_MS);
    },
    [first],
  );

  const value = useMemo(() => ({ observe, marks }), [observe, marks]);
  return (
    <LiveContext.Provider value={value}>
      {children}
      <p role="status" aria-live="polite" className="sr-only" data-testid="live-announcement">
        {announcement}
      </p>
    </LiveContext.Provider>
  );
}

/** The card's mark ("New", "Changed by Max") while it lasts; null outside a live page. */
export function useLiveMark(fact: Observed): string | null {
  const live = useContext(LiveContext);
  const observe = live?.observe;
  const { id, version, updatedAt, body, changedBy } = fact;
  useEffect(() => {
    observe?.({ id, version, updatedAt, body, changedBy });
  }, [observe, id, version, updatedAt, body, changedBy]);
  return live?.marks.get(id) ?? null;
}

export function LiveMark({ mark }: { mark: string | null }) {
  if (!mark) return null;
  return <span className="shrink-0 rounded bg-emerald-50 px-1.5 py-0.5 text-xs font-medium text-emerald-800">{mark}</span>;
}
