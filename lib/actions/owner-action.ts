/**
 * The builder for owner settings' server actions. Each call, on the server: parse
 * with zod, load the session, and require an owner of the named workspace — read
 * from the database every time. Anyone else gets the same answer as for a thing
 * that does not exist.
 */
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { membershipOf, type SignedInUser } from "@/lib/auth/session";
import { userAction } from "./user-action";

export type OwnerActionContext = {
  db: Db;
  /** Who acts, and whom the audit list names. */
  owner: SignedInUser;
  workspace: { id: string; name: string };
  /** Refreshes the workspace's settings pages after a change. */
  refresh: () => void;
};

export const NOTHING_HERE = "There is no such thing in this workspace you can change.";

export function ownerAction<Schema extends z.ZodType<{ workspace: string }>, Result>(
  schema: Schema,
  handler: (context: OwnerActionContext, input: z.output<Schema>) => Promise<Result>,
) {
  return userAction<Schema, Result>(
    schema,
    async ({ db, user }, input) => {
      const membership = await membershipOf(user.id, input.workspace);
      if (!membership || membership.role !== "owner") return { status: "failed", message: NOTHING_HERE };
      return handler(
        {
          db,
          owner: user,
          workspace: { id: membership.id, name: membership.name },
          refresh: () => revalidatePath(`/w/${input.workspace}`, "layout"),
        },
        input,
      );
    },
    "owner",
    { namesField: true },
  );
}
