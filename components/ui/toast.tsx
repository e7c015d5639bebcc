"use client";

import { createContext, useCallback, useContext, useEffect, useState } from "react";

type Toast = { id: number; message: string; tone: "info" | "error"; action?: { label: string; run: () => void } };
type ShowToast = (toast: Omit<Toast, "id">) => void;

const ToastContext = createContext<ShowToast>(() => {});

/** Short notices at the bottom of the screen, read out politely by screen readers. */
export function ToastProvider({ children }: { children: React.ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback<ShowToast>((toast) => {
    const id = Date.now() + Math.random();
    setToasts((all) => [...all.slice(-2), { ...toast, id }]);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div
        role="status"
        aria-live="polite"
        aria-label="Notifications"
        // On phones at the top: at the bottom it covered Restore and the last buttons of a card.
        className="pointer-events-none fixed inset-x-0 top-2 z-50 flex flex-col items-center gap-2 px-4 sm:top-auto sm:bottom-4"
      >
        {toasts.map((toast) => (
          <ToastItem
            key={toast.id}
            toast={toast}
            onDone={() => dismiss(toast.id)}
            // Ctrl+Z undoes the newest action only, never two at once.
            undoKey={toast.id === toasts.findLast((t) => t.action)?.id}
          />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** How long a toast stays unless hovered or focused; one with an Undo stays long enough to reach it. */
const SHOWN_MS = 6000;
const SHOWN_WITH_ACTION_MS = 15000;

function ToastItem({ toast, onDone, undoKey }: { toast: Toast; onDone: () => void; undoKey: boolean }) {
  // Paused while the pointer is over it or focus is in it: nobody loses an Undo while reaching for it.
  const [held, setHeld] = useState({ hover: false, focus: false });
  const paused = held.hover || held.focus;
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(onDone, toast.action ? SHOWN_WITH_ACTION_MS : SHOWN_MS);
    return () => clearTimeout(timer);
  }, [toast.action, onDone, paused]);
  useEffect(() => {
    if (!toast.action || !undoKey) return;
    // Ctrl+Z (⌘Z) runs the Undo from anywhere but a text field, where it undoes typing.
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== "z" || !(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable=true]")) return;
      event.preventDefault();
      toast.action?.run();
      onDone();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toast.action, onDone, undoKey]);
  return (
    <div
      onPointerEnter={() => setHeld((h) => ({ ...h, hover: true }))}
      onPointerLeave={() => setHeld((h) => ({ ...h, hover: false }))}
      onFocus={() => setHeld((h) => ({ ...h, focus: true }))}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setHeld((h) => ({ ...h, focus: false }));
      }}
      className={`pointer-events-auto flex max-w-md items-center gap-3 rounded-md px-4 py-3 text-sm shadow-lg ${
        toast.tone === "error" ? "bg-red-700 text-white" : "bg-slate-900 text-white"
      }`}
    >
      <span className="min-w-0 flex-1">{toast.message}</span>
      {toast.action ? (
        <button
          type="button"
          aria-keyshortcuts={undoKey ? "Control+Z Meta+Z" : undefined}
          className="shrink-0 rounded px-2 py-1 font-semibold text-brand-100 underline-offset-4 hover:underline"
          onClick={() => {
            toast.action?.run();
            onDone();
          }}
        >
          {toast.action.label}
          {undoKey ? <span className="font-normal text-white/70"> (Ctrl+Z)</span> : null}
        </button>
      ) : null}
      <button type="button" aria-label="Dismiss" className="shrink-0 px-1 text-white/70 hover:text-white" onClick={onDone}>
        ×
      </button>
    </div>
  );
}

export function useToast(): ShowToast {
  return useContext(ToastContext);
}
