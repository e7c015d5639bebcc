/**
 * The builder for actions any signed-in person may take outside a workspace
 * (starting one): parse with zod, then load the person from the database.
 */
import type { z } from "zod";
import { getDb } from "@/db";
import type { Db } from "@/db/client";
import { currentUser, type SignedInUser } from "@/lib/auth/session";
import type { ActionFailure } from "./agent-action";

export type UserActionContext = { db: Db; user: SignedInUser };

export const SIGNED_OUT = "Your session has ended. Sign in again.";

export function userAction<Schema extends z.ZodType, Result>(
  schema: Schema,
  handler: (context: UserActionContext, input: z.output<Schema>) => Promise<Result>,
) {
  return async (raw: FormData | Record<string, unknown>): Promise<Result | ActionFailure> => {
    const parsed = schema.safeParse(raw instanceof FormData ? Object.fromEntries(raw) : raw);
    if (!parsed.success) return { status: "invalid_data", message: parsed.error.issues[0]?.message ?? "Check the form." };
    const user = await currentUser();
    if (!user) return { status: "failed", message: SIGNED_OUT };
    return handler({ db: getDb(), user }, parsed.data);
  };
}
