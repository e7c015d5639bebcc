"use client";

import { useRouter } from "next/navigation";
import { useActionState } from "react";
import { useToast } from "@/components/ui/toast";

type State = { status: string; message?: string; href?: string };

/**
 * useActionState for an owner action: a success is announced in a toast (and
 * may move the page on), anything else stays in the state for the form to show
 * next to its fields.
 */
export function useAdminAction<S extends State>(action: (data: FormData) => Promise<S>) {
  const toast = useToast();
  const router = useRouter();
  return useActionState<S | { status: "idle" }, FormData>(async (_previous, data) => {
    const state = await action(data);
    if (state.status === "success" && state.message) {
      toast({ message: state.message, tone: "info" });
      if (state.href) router.push(state.href);
    }
    return state;
  }, { status: "idle" });
}
