/**
 * The builder for owner settings' server actions. Each call, on the server: parse
 * with zod, load the session, and require an owner of the named workspace — read
 * from the database every time. Anyone else gets the same answer as for a thing
 * that does not exist.
 */
import { revalidatePath } from "next/cache";
import { logAction } from "./action-log";
import type { z } from "zod";
import { getDb } from "@/db";
import type { Db } from "@/db/client";
import type { AuditActor } from "@/lib/admin/audit";
import { currentUser, membershipOf, type SignedInUser } from "@/lib/auth/session";
import type { ActionFailure } from "./agent-action";

export type OwnerActionContext = {
  db: Db;
  owner: SignedInUser;
  /** Who the audit list names. */
  actor: AuditActor;
  workspace: { id: string; name: string };
  /** Refreshes the workspace's settings pages after a change. */
  refresh: () => void;
};

export const NOTHING_HERE = "There is no such thing in this workspace you can change.";

export function ownerAction<Schema extends z.ZodType<{ workspace: string }>, Result>(
  schema: Schema,
  handler: (context: OwnerActionContext, input: z.output<Schema>) => Promise<Result>,
) {
  async function run(raw: FormData | Record<string, unknown>, seen: { userId?: string }): Promise<Result | ActionFailure> {
    const parsed = schema.safeParse(raw instanceof FormData ? Object.fromEntries(raw) : raw);
    if (!parsed.success) return { status: "invalid_data", message: parsed.error.issues[0]?.message ?? "Check the form." };
    const user = await currentUser();
    if (!user) return { status: "failed", message: "Your session has ended. Sign in again." };
    seen.userId = user.id;
    const input = parsed.data;
    const membership = await membershipOf(user.id, input.workspace);
    if (!membership || membership.role !== "owner") return { status: "failed", message: NOTHING_HERE };
    return handler(
      {
        db: getDb(),
        owner: user,
        actor: { id: user.id, name: user.name },
        workspace: { id: membership.id, name: membership.name },
        refresh: () => revalidatePath(`/w/${input.workspace}`, "layout"),
      },
      input,
    );
  }
  return (raw: FormData | Record<string, unknown>): Promise<Result | ActionFailure> => {
    const seen: { userId?: string } = {};
    return logAction("owner", () => seen.userId, () => run(raw, seen));
  };
}
