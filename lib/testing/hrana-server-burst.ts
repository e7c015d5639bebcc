/**
 * One "app process" for hrana-server.test.ts (issue #19): run with
 * `node --import tsx` and DATABASE_URL at a stand-in, it does what the agent API
 * does for a key — authenticate, remember, recall through this process's kept
 * answers — when told on stdin, and prints each outcome as one JSON line. Two of
 * them on one server are two app instances on one database server.
 *
 * stdin lines: `burst <n> <prefix>` remembers n facts at once in #general;
 * `recall` prints the bodies recalled in #general for Ana; `exit` ends it.
 */
import { createInterface } from "node:readline";
import { connect } from "@/db/client";
import { rememberForAgent } from "@/lib/api/agent-memory";
import { authenticateAgent } from "@/lib/api/auth";
import { ApiError } from "@/lib/api/errors";
import { recallAnswer, recallOutputOf } from "@/lib/api/recall-cache";

const key = process.env.BURST_AGENT_KEY ?? "";
const db = connect(process.env.DATABASE_URL ?? "");
const request = () => new Request("http://mnemo.test/api/v1/memories", { headers: { authorization: `Bearer ${key}` } });
const say = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

async function burst(n: number, prefix: string): Promise<(number | string)[]> {
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      try {
        const agent = await authenticateAgent(db, request());
        const { status } = await rememberForAgent(db, agent, { channel: "general", asker: "ana", fact: `${prefix} fact ${i}.`, scope: "channel" });
        return status;
      } catch (error) {
        if (error instanceof ApiError) return `${error.status} ${error.code}`;
        // The driver's own words: Drizzle wraps them as the cause of "Failed query".
        let root = error as Error;
        while (root.cause instanceof Error) root = root.cause;
        return `error ${root.message}`;
      }
    }),
  );
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...args] = line.trim().split(" ");
  if (command === "burst") say({ outcomes: await burst(Number(args[0]), args[1]) });
  else if (command === "recall") {
    const agent = await authenticateAgent(db, request());
    const answer = recallOutputOf(await recallAnswer(db, agent, { channel: "general", asker: "ana" }));
    say({ bodies: answer.facts.map((fact) => fact.body) });
  } else if (command === "exit") break;
}
db.$client.close();
process.exit(0);
