/** Agent keys as owners manage them, checked against the API's own key check (lib/api/auth.ts). */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { agentKeys } from "@/db/schema";
import { authenticateAgent } from "@/lib/api/auth";
import { AGENT_KEY_PATTERN, hashAgentKey } from "@/lib/api/agent-keys";
import { ApiError } from "@/lib/api/errors";
import { freshDemoForEachTest } from "@/lib/testing/demo-db";
import { createAgentKey, listAgentKeys, revokeAgentKey } from "./agent-keys";
import { listAudit } from "./audit";

const db = freshDemoForEachTest();
const OLIVIA = { id: "olivia", name: "Olivia Owen" };

const call = (key: string) =>
  authenticateAgent(db(), new Request("http://mnemo.test/api/v1/recall", { headers: { authorization: `Bearer ${key}` } }));

describe("agent keys", () => {
  it("creates a key that is returned once, stored as a hash, and works for its own agent only", async () => {
    const created = await createAgentKey(db(), OLIVIA, "acme", "scout", "CI");
    if (!created) throw new Error("expected a key");
    expect(created.key).toMatch(AGENT_KEY_PATTERN);
    expect(created.prefix).toBe(created.key.slice(0, 10));
    const [row] = await db().select().from(agentKeys).where(eq(agentKeys.id, created.id));
    expect(row.hash).toBe(hashAgentKey(created.key));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(await call(created.key)).toMatchObject({ keyId: created.id, agentId: "scout", workspaceId: "acme" });
  });

  it("lists name, prefix and times, never the hash", async () => {
    const created = await createAgentKey(db(), OLIVIA, "acme", "scout", "CI");
    const list = await listAgentKeys(db(), "acme", "scout");
    expect(list.map((k) => k.name)).toEqual(["CI", "Demo key"]);
    expect(list[0]).toEqual({
      id: created?.id,
      name: "CI",
      prefix: created?.prefix,
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(await listAgentKeys(db(), "globex", "scout")).toEqual([]);
  });

  it("revokes a key at once; the API refuses it from the next request on", async () => {
    const created = await createAgentKey(db(), OLIVIA, "acme", "scout", "CI");
    if (!created) throw new Error("expected a key");
    await call(created.key);
    expect(await revokeAgentKey(db(), OLIVIA, "acme", created.id)).toBe(true);
    await expect(call(created.key)).rejects.toSatisfy((e) => e instanceof ApiError && e.status === 401);
    expect(await revokeAgentKey(db(), OLIVIA, "acme", created.id)).toBe(false);
    expect((await listAgentKeys(db(), "acme", "scout"))[0]).toMatchObject({ revokedAt: expect.any(String), lastUsedAt: expect.any(String) });
    expect((await listAudit(db(), "acme")).map((e) => e.action).reverse()).toEqual(["key.create", "key.revoke"]);
  });

  it("never creates or revokes across workspaces", async () => {
    expect(await createAgentKey(db(), { id: "gina", name: "Gina Grant" }, "globex", "scout", "Mine")).toBeNull();
    expect(await revokeAgentKey(db(), { id: "gina", name: "Gina Grant" }, "globex", "key_demo_scout")).toBe(false);
    const [demo] = await db().select().from(agentKeys).where(eq(agentKeys.id, "key_demo_scout"));
    expect(demo.revokedAt).toBeNull();
    expect(await listAudit(db(), "globex")).toEqual([]);
  });
});
