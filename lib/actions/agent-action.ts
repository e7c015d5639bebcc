/**
 * The one builder every Memory page action goes through. Each call, on the
 * server: parse the input with zod, load the session, re-check the workspace
 * membership and the agent, then run the action with a typed context. Refusals
 * are small typed states, never thrown errors or whole rows.
 */
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { agentByHandle } from "@/lib/agents";
import { membershipOf } from "@/lib/auth/session";
import type { PersonActor } from "@/lib/memory/writes";
import { userAction } from "./user-action";

export type { ActionFailure } from "./user-action";

export type AgentActionContext = {
  db: Db;
  viewer: PersonActor;
  role: "owner" | "member";
  agent: { id: string; handle: string; name: string; workspaceId: string };
  /** Refreshes the Memory page after a change. */
  refresh: () => void;
};

export const NOT_FOUND = "There is no such fact you can change.";

export function agentAction<Schema extends z.ZodType<{ workspace: string; agent: string }>, Result>(
  schema: Schema,
  handler: (context: AgentActionContext, input: z.output<Schema>) => Promise<Result>,
) {
  return userAction<Schema, Result>(
    schema,
    async ({ db, user }, input) => {
      const membership = await membershipOf(user.id, input.workspace);
      const agent = membership ? await agentByHandle(db, input.workspace, input.agent) : null;
      if (!membership || !agent) return { status: "failed", message: NOT_FOUND };
      return handler(
        {
          db,
          viewer: { workspaceId: input.workspace, userId: user.id, name: user.name, handle: user.handle },
          role: membership.role,
          agent,
          refresh: () => revalidatePath(`/w/${input.workspace}/agents/${agent.handle}/memory`),
        },
        input,
      );
    },
    "memory",
  );
}
