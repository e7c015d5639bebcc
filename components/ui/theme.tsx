"use client";

/**
 * Light, dark, or the system's choice. The choice is kept in localStorage and
 * applied as data-theme on <html> by THEME_SCRIPT, inline in the root layout's
 * <head>, so the first paint already has the right theme (no flash); it also
 * follows the system while the choice is "system".
 */
import { useId, useSyncExternalStore } from "react";

const KEY = "mnemo-theme";
type Choice = "system" | "light" | "dark";

export const THEME_SCRIPT = `(function(){try{var d=document.documentElement,m=window.matchMedia("(prefers-color-scheme: dark)");
function apply(){var t=null;try{t=localStorage.getItem("${KEY}")}catch(e){}
d.dataset.theme=t==="light"||t==="dark"?t:(m.matches?"dark":"light")}
apply();m.addEventListener("change",apply);window.addEventListener("storage",apply);window.__mnemoTheme=apply}catch(e){}})();`;

function stored(): Choice {
  try {
    const value = localStorage.getItem(KEY);
    return value === "light" || value === "dark" ? value : "system";
  } catch {
    return "system";
  }
}

const CHANGED = "mnemo-theme-change";

function subscribe(onChange: () => void) {
  window.addEventListener(CHANGED, onChange);
  window.addEventListener("storage", onChange);
  return () => {
    window.removeEventListener(CHANGED, onChange);
    window.removeEventListener("storage", onChange);
  };
}

/** A small select in the header: System, Light, Dark. */
export function ThemeToggle() {
  const id = useId();
  // "system" on the server and while hydrating; the stored choice right after.
  const choice = useSyncExternalStore(subscribe, stored, () => "system" as Choice);

  function choose(next: Choice) {
    try {
      if (next === "system") localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, next);
    } catch {
      // No storage (a locked-down browser): the choice lasts for this page only.
    }
    (window as unknown as { __mnemoTheme?: () => void }).__mnemoTheme?.();
    if (next !== "system") document.documentElement.dataset.theme = next;
    window.dispatchEvent(new Event(CHANGED));
  }

  return (
    <span className="flex items-center gap-1.5">
      <label htmlFor={id} className="sr-only text-slate-600 sm:not-sr-only">
        Theme
      </label>
      <select
        id={id}
        value={choice}
        onChange={(event) => choose(event.target.value as Choice)}
        className="min-h-10 rounded-md border border-slate-300 bg-white px-2 text-sm text-slate-800"
      >
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </span>
  );
}
