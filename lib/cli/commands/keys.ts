/** create-key, revoke-key and list-keys: an agent's API keys, managed from the command line. */
import { and, eq, isNull, or } from "drizzle-orm";
import type { Conn } from "@/db/client";
import { agentKeys, agents } from "@/db/schema";
import { createAgentKey, KeyNameTaken, listAgentKeys, MAX_KEY_NAME, revokeAgentKey } from "@/lib/admin/agent-keys";
import { OPERATOR } from "@/lib/admin/audit";
import { hashAgentKey } from "@/lib/api/agent-keys";
import { z } from "zod";
import { CliError, flagValue, type Command } from "../command";
import { requireAgent, requireWorkspace } from "../lookups";

const WORKSPACE = { type: "string", value: "id", description: "The workspace's id, as in its URL (/w/<id>).", required: true } as const;
const AGENT = { type: "string", value: "handle", description: "The agent's handle, such as scout.", required: true } as const;

const keyName = z
  .string()
  .trim()
  .min(1, "name the key, for example after where it is used.")
  .max(MAX_KEY_NAME, `a key name is at most ${MAX_KEY_NAME} characters.`);

export const createKeyCommand: Command = {
  name: "create-key",
  summary: "Creates an API key for an agent and prints it once. Only its hash is kept; it cannot be shown again.",
  flags: {
    workspace: WORKSPACE,
    agent: AGENT,
    name: { type: "string", value: "name", description: "What the key is for, such as \"CI\" or \"Slack bot\".", required: true },
  },
  async run({ io, db: open }, values) {
    const name = flagValue(keyName, "name", values.name);
    const db = await open();
    const workspace = await requireWorkspace(db, String(values.workspace));
    const agent = await requireAgent(db, workspace.id, String(values.agent));
    const created = await createAgentKey(db, OPERATOR, workspace.id, agent.id, name).catch((error: unknown) => {
      if (error instanceof KeyNameTaken) throw new CliError(error.message);
      throw error;
    });
    if (!created) throw new CliError(`There is no agent @${agent.handle} in the workspace "${workspace.id}".`);
    io.out(`Created the key "${name}" (id: ${created.id}) for @${agent.handle} in ${workspace.id}.`);
    io.out("The key (shown only this once; the agent sends it as `Authorization: Bearer <key>`):");
    io.out(`  ${created.key}`);
  },
};

/** The workspace's live keys a value names: by id, by the prefix lists show, or the whole key. */
async function liveKeysMatching(db: Conn, workspaceId: string, value: string) {
  return db
    .select({ id: agentKeys.id, name: agentKeys.name, handle: agents.handle })
    .from(agentKeys)
    .innerJoin(agents, eq(agents.id, agentKeys.agentId))
    .where(
      and(
        eq(agents.workspaceId, workspaceId),
        isNull(agentKeys.revokedAt),
        or(eq(agentKeys.id, value), eq(agentKeys.prefix, value), eq(agentKeys.hash, hashAgentKey(value))),
      ),
    );
}

export const revokeKeyCommand: Command = {
  name: "revoke-key",
  summary: "Revokes an agent's key: the next request with it is refused.",
  flags: {
    workspace: WORKSPACE,
    key: { type: "string", value: "id or prefix", description: "The key's id or prefix, as list-keys shows them.", required: true },
  },
  async run({ io, db: open }, values) {
    const value = String(values.key).trim();
    const db = await open();
    const workspace = await requireWorkspace(db, String(values.workspace));
    const matches = await liveKeysMatching(db, workspace.id, value);
    if (!matches.length) throw new CliError(`There is no live key "${value}" in the workspace "${workspace.id}".`);
    if (matches.length > 1) {
      throw new CliError(`"${value}" matches ${matches.length} keys (${matches.map((k) => k.id).join(", ")}); give the key id.`);
    }
    const [key] = matches;
    if (!(await revokeAgentKey(db, OPERATOR, workspace.id, key.id))) {
      throw new CliError(`There is no live key "${value}" in the workspace "${workspace.id}".`);
    }
    io.out(`Revoked @${key.handle}'s key "${key.name}" (id: ${key.id}).`);
  },
};

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "never");

export const listKeysCommand: Command = {
  name: "list-keys",
  summary: "Lists an agent's keys, newest first. Shows each key's id, name, prefix, when it was created and last used, and whether it is revoked.",
  flags: { workspace: WORKSPACE, agent: AGENT },
  async run({ io, db: open }, values) {
    const db = await open();
    const workspace = await requireWorkspace(db, String(values.workspace));
    const agent = await requireAgent(db, workspace.id, String(values.agent));
    const keys = await listAgentKeys(db, workspace.id, agent.id);
    if (!keys.length) {
      io.out(`@${agent.handle} has no keys. Make one with create-key.`);
      return;
    }
    const rows = [
      ["ID", "NAME", "PREFIX", "CREATED", "LAST USED", "STATUS"],
      ...keys.map((k) => [
        k.id,
        k.name,
        k.prefix,
        when(k.createdAt),
        when(k.lastUsedAt),
        k.revokedAt ? `revoked ${when(k.revokedAt)}` : "live",
      ]),
    ];
    const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
    for (const row of rows) io.out(row.map((cell, i) => cell.padEnd(widths[i])).join("  ").trimEnd());
  },
};
