"use client";

import { useRouter } from "next/navigation";
import { useActionState } from "react";
import { focusSoon } from "@/components/ui/focus-soon";
import { useToast } from "@/components/ui/toast";

type State = { status: string; message?: string; href?: string };

/**
 * useActionState for an owner action: a success is announced in a toast (and
 * may move the page on), anything else stays in the state for the form to show
 * next to its fields. `focusAfter`: where focus goes after a success — the changed row
 * or the form's result — instead of <body>, where a disabled or removed button drops it.
 */
export function useAdminAction<S extends State>(action: (data: FormData) => Promise<S>, focusAfter?: () => HTMLElement | null) {
  const toast = useToast();
  const router = useRouter();
  return useActionState<S | { status: "idle" }, FormData>(async (_previous, data) => {
    const state = await action(data);
    if (state.status === "success" && state.message) {
      toast({ message: state.message, tone: "info" });
      if (state.href) router.push(state.href);
      else if (focusAfter) focusSoon(focusAfter);
    }
    return state;
  }, { status: "idle" });
}
