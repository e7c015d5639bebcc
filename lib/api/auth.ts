/**
 * Who is calling the agent API: `Authorization: Bearer mnemo_…`, looked up by its
 * SHA-256 hash. A missing, malformed, unknown or revoked key gets the same 401, so
 * the answer never tells which keys exist. Revoking works at once: every request
 * reads the key row. An expired key gets a 401 that says so — only its holder can
 * send it, and "it expired" tells them what to do.
 */
import { readOne, writeTransaction, type Conn } from "@/db/client";
import { AGENT_KEY_PATTERN, hashAgentKey } from "./agent-keys";
import { apiError } from "./errors";

/** The agent a request acts for, and the key it used. */
export type AgentContext = {
  keyId: string;
  agentId: string;
  workspaceId: string;
  handle: string;
  name: string;
  /**
   * The versions of what a recall here depends on, read with the key: the agent's
   * facts and its workspace's places (see drizzle/0005). Equal versions, equal answers.
   */
  recallVersion: string;
};

/** "last used" is written at most this often per key, so a busy key does not write on every call. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Up to a minute more for each key, fixed by its id: keys first used together (a
 * fleet of agents starting at once) then write "last used" spread over a minute,
 * not all in the same second — each write is a commit with its fsync.
 */
function spreadOf(keyId: string): number {
  let h = 0;
  for (let i = 0; i < keyId.length; i++) h = (h * 31 + keyId.charCodeAt(i)) | 0;
  return (h >>> 0) % LAST_USED_RESOLUTION_MS;
}

const unauthorized = () =>
  apiError("unauthorized", "Send a valid agent key as `Authorization: Bearer mnemo_…`. Revoked keys stop working.", {
    "WWW-Authenticate": 'Bearer realm="mnemo"',
  });

const expired = (at: string) =>
  apiError(
    "unauthorized",
    `This key expired on ${at.slice(0, 10)} (UTC). Ask an owner of the workspace for a new key in the agent's settings.`,
    { "WWW-Authenticate": 'Bearer realm="mnemo", error="invalid_token", error_description="The key expired"' },
  );

/** The key in an Authorization header, or null when there is none of the right shape. */
export function bearerKey(header: string | null): string | null {
  const match = header?.match(/^\s*Bearer\s+(\S+)\s*$/i);
  const key = match?.[1];
  return key && AGENT_KEY_PATTERN.test(key) ? key : null;
}

// Read on every request, so a revoked key fails on the very next one.
const KEY_SQL = `SELECT k.id AS keyId, a.id AS agentId, a.workspace_id AS workspaceId, a.handle AS handle,
    a.name AS name, a.memory_version || '.' || w.places_version AS recallVersion, k.last_used_at AS lastUsedAt,
    k.expires_at AS expiresAt
  FROM agent_keys k JOIN agents a ON a.id = k.agent_id JOIN workspaces w ON w.id = a.workspace_id
  WHERE k.hash = ? AND k.revoked_at IS NULL LIMIT 1`;

export async function authenticateAgent(db: Conn, request: Request, now: Date = new Date()): Promise<AgentContext> {
  const key = bearerKey(request.headers.get("authorization"));
  if (!key) throw unauthorized();
  const row = await readOne<AgentContext & { lastUsedAt: string | null; expiresAt: string | null }>(db, KEY_SQL, [
    hashAgentKey(key),
  ]);
  if (!row) throw unauthorized();

  const { lastUsedAt, expiresAt, ...agent } = row;
  if (expiresAt && expiresAt <= now.toISOString()) throw expired(expiresAt);
  const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS - spreadOf(agent.keyId)).toISOString();
  if (!lastUsedAt || lastUsedAt < stale) await touchKey(db, agent.keyId, now.toISOString(), stale);
  return agent;
}

const TOUCH_SQL = "UPDATE agent_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)";

/**
 * Records that a key was used, in a write transaction (it takes its turn with the
 * file's other writers, and may share their commit, see db/writer.ts); the WHERE
 * makes concurrent touches write once. A failure here must not fail the request.
 * Its COMMIT does not wait for the disk: it runs on the thread that serves every
 * request (hundreds of keys: a few a second), and a power cut that loses it loses
 * only when a key was last used, written again on its next use.
 */
async function touchKey(db: Conn, keyId: string, at: string, stale: string): Promise<void> {
  try {
    await writeTransaction(db, (writes) => writes.run(TOUCH_SQL, [at, keyId, stale]), { fsync: false });
  } catch (error) {
    console.error("Agent API: could not record that a key was used", error);
  }
}
