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
        className="pointer-events-none fixed inset-x-0 bottom-4 z-50 flex flex-col items-center gap-2 px-4"
      >
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDone={() => dismiss(toast.id)} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}

function ToastItem({ toast, onDone }: { toast: Toast; onDone: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onDone, toast.action ? 8000 : 5000);
    return () => clearTimeout(timer);
  }, [toast.action, onDone]);
  return (
    <div
      className={`pointer-events-auto flex max-w-md items-center gap-3 rounded-md px-4 py-3 text-sm shadow-lg ${
        toast.tone === "error" ? "bg-red-700 text-white" : "bg-slate-900 text-white"
      }`}
    >
      <span className="min-w-0 flex-1">{toast.message}</span>
      {toast.action ? (
        <button
          type="button"
          className="shrink-0 rounded px-2 py-1 font-semibold text-brand-100 underline-offset-4 hover:underline"
          onClick={() => {
            toast.action?.run();
            onDone();
          }}
        >
          {toast.action.label}
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
