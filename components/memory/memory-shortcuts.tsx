"use client";

/**
 * Moving through a long Memory page without a mouse or a long scroll (#17): skip
 * links to search and to Remember, a bar that keeps both in reach at the top on
 * phones, and the keys / (search), n (remember), ? (this list). Keys never fire
 * while the person types in a field, and leave modified keys to the browser.
 */
import { useEffect, useRef } from "react";

const SEARCH = "#filter-q";
const REMEMBER = "form[aria-labelledby='add-fact-heading'] textarea";

function focusField(selector: string) {
  const field = document.querySelector<HTMLElement>(selector);
  if (!field) return;
  field.scrollIntoView({ block: "center" });
  field.focus();
}

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

const KEYS: [string, string][] = [
  ["/", "Search facts"],
  ["n", "Remember a fact"],
  ["Esc", "Cancel an edit or close a dialog"],
  ["?", "Show these shortcuts"],
];

export function MemoryShortcuts() {
  const sheet = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
      // Another dialog open (a confirmation): its keys are its own.
      if (document.querySelector("dialog[open]")) return;
      if (event.key === "/") {
        event.preventDefault();
        focusField(SEARCH);
      } else if (event.key === "n") {
        event.preventDefault();
        focusField(REMEMBER);
      } else if (event.key === "?") {
        event.preventDefault();
        sheet.current?.showModal();
      }
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const linkClass =
    "rounded-md bg-white px-3 py-2 text-sm font-medium text-brand-700 ring-1 ring-slate-300 hover:bg-slate-50";
  return (
    <>
      {/* Skip links: hidden until focused, the first stops on the page. */}
      <nav aria-label="Skip links" className="flex gap-2">
        <a href={SEARCH} className={`sr-only focus:not-sr-only ${linkClass}`} onClick={(e) => (e.preventDefault(), focusField(SEARCH))}>
          Skip to search
        </a>
        <a href="#add-fact-heading" className={`sr-only focus:not-sr-only ${linkClass}`} onClick={(e) => (e.preventDefault(), focusField(REMEMBER))}>
          Skip to Remember a fact
        </a>
      </nav>
      {/* On phones the side column comes after every fact: this bar keeps search and Remember at the top. */}
      <div className="sticky top-0 z-20 flex gap-2 bg-slate-50/95 py-2 lg:hidden">
        <button type="button" className={linkClass} onClick={() => focusField(SEARCH)}>
          Search
        </button>
        <button type="button" className={linkClass} onClick={() => focusField(REMEMBER)}>
          Remember a fact
        </button>
      </div>
      <dialog
        ref={sheet}
        aria-labelledby="shortcuts-heading"
        className="m-auto w-full max-w-sm rounded-lg p-5 shadow-xl backdrop:bg-slate-900/40"
      >
        <h2 id="shortcuts-heading" className="text-lg font-semibold">
          Keyboard shortcuts
        </h2>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {KEYS.map(([key, what]) => (
            <div key={key} className="contents">
              <dt>
                <kbd className="rounded border border-slate-300 bg-slate-100 px-1.5 font-mono">{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-3 text-xs text-slate-600">Not while typing in a field.</p>
        <form method="dialog" className="mt-4">
          <button type="submit" className={linkClass}>
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
