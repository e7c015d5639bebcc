/**
 * Focus that follows the work. After an action the element a person should land on
 * often does not exist yet (the refreshed list brings the new card) or is replaced
 * (a card remounts with its new version), and the browser drops focus to <body> —
 * on a long page that loses their place. focusSoon keeps putting focus on what
 * `find` returns while focus is lost, for a few seconds, and gives up as soon as
 * the person has moved focus somewhere else themselves.
 */
const WATCH_MS = 6000;

let current: { cancel: () => void } | null = null;

function lost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !active.isConnected;
}

export type FocusSoonOptions = {
  onGiveUp?: () => void;
  /**
   * Where the person moves on to may be replaced too (Tab from Pin to Edit just before
   * the refreshed card arrives): given the element they moved to, how to find it again
   * once replaced — or null to let it go.
   */
  follow?: (moved: HTMLElement) => (() => HTMLElement | null) | null;
};

export function focusSoon(find: () => HTMLElement | null, options: FocusSoonOptions = {}): void {
  current?.cancel();
  const started = performance.now();
  let placed: HTMLElement | null = null;
  let frame = 0;
  const step = () => {
    const active = document.activeElement;
    // The person moved on (Tab, a click): their choice wins — and is kept through a replacement if `follow` can find it.
    if (placed && active !== placed && !lost()) {
      const next = options.follow?.(active as HTMLElement);
      if (!next) return stop();
      find = next;
      placed = active as HTMLElement;
    }
    const target = find();
    if (target === active) placed = target;
    else if (target && (placed === null || lost())) {
      target.focus();
      if (document.activeElement === target) placed = target;
    }
    if (performance.now() - started > WATCH_MS) {
      if (!placed) options.onGiveUp?.();
      return stop();
    }
    frame = requestAnimationFrame(step);
  };
  const stop = () => {
    cancelAnimationFrame(frame);
    if (current === handle) current = null;
  };
  const handle = { cancel: () => cancelAnimationFrame(frame) };
  current = handle;
  frame = requestAnimationFrame(step);
}

/** The card of a fact on the Memory page, or one of its controls (data-focus="edit" | "pin"). */
export function factElement(factId: string, control?: "edit" | "pin"): HTMLElement | null {
  const card = document.querySelector<HTMLElement>(`li[data-fact-id="${CSS.escape(factId)}"]`);
  if (!card || !control) return card;
  return card.querySelector<HTMLElement>(`[data-focus="${control}"]`);
}
