/**
 * The base of every server action: parse the input with zod, load the signed-in
 * person from the database, log the call (lib/actions/action-log.ts), then run.
 * ownerAction and memoryAction add their workspace checks on top of it; an action
 * for any signed-in person (starting a workspace) uses it directly.
 */
import type { z } from "zod";
import { getDb } from "@/db";
import type { Db } from "@/db/client";
import { currentUser, type SignedInUser } from "@/lib/auth/session";
import { logAction } from "./action-log";

/** `field`: the form field the refusal is about, so the page shows it there (aria-invalid) and keeps the rest. */
export type ActionFailure = { status: "failed" | "invalid_data"; message: string; field?: string };
export type UserActionContext = { db: Db; user: SignedInUser };

export const SIGNED_OUT = "Your session has ended. Sign in again.";

export function userAction<Schema extends z.ZodType, Result>(
  schema: Schema,
  handler: (context: UserActionContext, input: z.output<Schema>) => Promise<Result | ActionFailure>,
  kind = "user",
  /** Settings forms show a refusal on its field: name the field a malformed input was refused for. */
  options: { namesField?: boolean } = {},
) {
  return (raw: FormData | Record<string, unknown>): Promise<Result | ActionFailure> => {
    let userId: string | undefined;
    return logAction(kind, () => userId, async (): Promise<Result | ActionFailure> => {
      const parsed = schema.safeParse(raw instanceof FormData ? Object.fromEntries(raw) : raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = options.namesField && typeof issue?.path[0] === "string" ? issue.path[0] : undefined;
        return { status: "invalid_data", message: issue?.message ?? "Check the form.", ...(field ? { field } : {}) };
      }
      const user = await currentUser();
      if (!user) return { status: "failed", message: SIGNED_OUT };
      userId = user.id;
      return handler({ db: getDb(), user }, parsed.data);
    });
  };
}
