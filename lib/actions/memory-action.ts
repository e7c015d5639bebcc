/**
 * The one builder every Memory page action goes through: a person acting on an
 * agent's memory (the agent itself calls through lib/api/handler.ts's
 * agentRoute). Each call, on the server: parse the input with zod, load the
 * session, re-check the workspace membership and the agent, then run the action
 * with a typed context. Refusals are small typed states, never thrown errors or
 * whole rows.
 */
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { Db } from "@/db/client";
import type { Agent } from "@/lib/agents";
import { memberAndAgent } from "@/lib/auth/session";
import type { PersonActor } from "@/lib/memory/writes";
import { userAction } from "./user-action";

export type { ActionFailure } from "./user-action";

export type MemoryActionContext = {
  db: Db;
  viewer: PersonActor;
  agent: Agent;
  /** Refreshes the Memory page after a change. */
  refresh: () => void;
};

export const NOT_FOUND = "There is no such fact you can change.";

export function memoryAction<Schema extends z.ZodType<{ workspace: string; agent: string }>, Result>(
  schema: Schema,
  handler: (context: MemoryActionContext, input: z.output<Schema>) => Promise<Result>,
) {
  return userAction<Schema, Result>(
    schema,
    async ({ db, user }, input) => {
      const found = await memberAndAgent(user, input.workspace, input.agent);
      if (!found) return { status: "failed", message: NOT_FOUND };
      const { agent } = found;
      return handler(
        {
          db,
          viewer: { workspaceId: input.workspace, id: user.id, name: user.name, handle: user.handle },
          agent,
          refresh: () => revalidatePath(`/w/${input.workspace}/agents/${agent.handle}/memory`),
        },
        input,
      );
    },
    "memory",
  );
}
