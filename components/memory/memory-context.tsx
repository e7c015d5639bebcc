"use client";

import { createContext, useContext } from "react";
import type { FactActionState, HistoryState } from "@/lib/actions/memory-states";

type Target = { workspace: string; agent: string };
type FactTarget = Target & { factId: string };

/** The page's server actions, handed down from the page so components never import a route. */
export type MemoryActions = {
  addFact: (input: FormData) => Promise<FactActionState>;
  correctFact: (
    input: FactTarget & { version: number; text: string; confirm?: boolean; valid_until?: string },
  ) => Promise<FactActionState>;
  renewFact: (input: FactTarget & { valid_until: string }) => Promise<FactActionState>;
  pinFact: (input: FactTarget & { pinned: boolean }) => Promise<FactActionState>;
  forgetFact: (input: FactTarget) => Promise<FactActionState>;
  restoreFact: (input: FactTarget) => Promise<FactActionState>;
  purgeFact: (input: FactTarget) => Promise<FactActionState>;
  factHistory: (input: FactTarget) => Promise<HistoryState>;
  /** "Looks like …": the older fact retired into this one, or the pair dismissed. */
  replaceOlder: (input: FactTarget & { otherId: string }) => Promise<FactActionState>;
  keepBoth: (input: FactTarget & { otherId: string }) => Promise<FactActionState>;
};

export type MemoryContext = {
  actions: MemoryActions;
  workspace: string;
  agent: string;
  agentName: string;
  /** The server's clock at render time, so relative times match on server and browser. */
  now: number;
};

const Context = createContext<MemoryContext | null>(null);

export function MemoryProvider({ value, children }: { value: MemoryContext; children: React.ReactNode }) {
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useMemory(): MemoryContext {
  const value = useContext(Context);
  if (!value) throw new Error("useMemory outside MemoryProvider");
  return value;
}
