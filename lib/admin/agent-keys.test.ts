/** Agent keys as owners manage them, checked against the API's own key check (lib/api/auth.ts). */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { agentKeys } from "@/db/schema";
import { authenticateAgent } from "@/lib/api/auth";
import { AGENT_KEY_PATTERN, hashAgentKey } from "@/lib/api/agent-keys";
import { ApiError } from "@/lib/api/errors";
import { freshDemoForEachTest } from "@/lib/testing/demo-db";
import { createAgentKey, KeyNameTaken, listAgentKeys, revokeAgentKey } from "./agent-keys";
import { listAudit } from "./audit";

const db = freshDemoForEachTest();
const OLIVIA = { id: "olivia", name: "Olivia Owen" };

const call = (key: string, now?: Date) =>
  authenticateAgent(db(), new Request("http://mnemo.test/api/v1/recall", { headers: { authorization: `Bearer ${key}` } }), now);

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
      expiresAt: null,
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

  it("refuses a second live key of the same name (any case), and allows it again once the first is revoked", async () => {
    const first = await createAgentKey(db(), OLIVIA, "acme", "scout", "CI");
    await expect(createAgentKey(db(), OLIVIA, "acme", "scout", "ci")).rejects.toBeInstanceOf(KeyNameTaken);
    // Another agent's key may share the name.
    expect(await createAgentKey(db(), { id: "gina", name: "Gina Grant" }, "globex", "echo", "CI")).not.toBeNull();
    expect((await listAgentKeys(db(), "acme", "scout")).filter((k) => k.name.toLowerCase() === "ci")).toHaveLength(1);
    await revokeAgentKey(db(), OLIVIA, "acme", first!.id);
    expect(await createAgentKey(db(), OLIVIA, "acme", "scout", "CI")).not.toBeNull();
  });

  it("an expired key is refused with a 401 that says it expired; before then it works, and its name is free again", async () => {
    const expiresAt = "2030-01-02T00:00:00.000Z";
    const created = await createAgentKey(db(), OLIVIA, "acme", "scout", "Trial", { expiresAt });
    if (!created) throw new Error("expected a key");
    expect((await listAgentKeys(db(), "acme", "scout"))[0]).toMatchObject({ name: "Trial", expiresAt });
    expect(await call(created.key, new Date("2030-01-01T23:59:59Z"))).toMatchObject({ keyId: created.id });
    const refusal = await call(created.key, new Date("2030-01-02T00:00:00Z")).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).status).toBe(401);
    expect((refusal as ApiError).message).toMatch(/expired on 2030-01-02/);
    // A revoked key still gets the plain answer, whatever its expiry.
    await revokeAgentKey(db(), OLIVIA, "acme", created.id);
    const revoked = await call(created.key, new Date("2030-01-03T00:00:00Z")).catch((e: unknown) => e);
    expect((revoked as ApiError).message).not.toMatch(/expired/);
    const renewed = await createAgentKey(db(), OLIVIA, "acme", "scout", "Other", {
      expiresAt: "2026-01-01T00:00:00.000Z",
      now: new Date("2025-06-01T00:00:00Z"),
    });
    expect(renewed).not.toBeNull();
    expect(await createAgentKey(db(), OLIVIA, "acme", "scout", "Other", { now: new Date("2026-01-01T00:00:01Z") })).not.toBeNull();
    // The expired one is revoked as of its expiry, so one key of the name is not revoked (agent_keys_live_name_idx).
    const others = (await listAgentKeys(db(), "acme", "scout")).filter((k) => k.name === "Other");
    expect(new Set(others.map((k) => k.revokedAt))).toEqual(new Set([null, "2026-01-01T00:00:00.000Z"]));
    // And the owners' log says so, before the new key: no key is revoked without an entry.
    const [newest, before] = await listAudit(db(), "acme");
    expect(newest).toMatchObject({ action: "key.create", summary: "@scout's key “Other”" });
    expect(before).toMatchObject({ action: "key.revoke", summary: "@scout's key “Other” (expired 2026-01-01; its name is used again)" });
  });

  it("the database itself holds one key of a name (any case) per agent among those not revoked", async () => {
    await createAgentKey(db(), OLIVIA, "acme", "scout", "Deploy");
    const row = { agentId: "scout", name: "DEPLOY", prefix: "mnemo_x", hash: "hash-x" };
    const refusal = await db()
      .insert(agentKeys)
      .values({ ...row, id: "key_x" })
      .then(() => null, (error: unknown) => error);
    // Refused by the index itself (the driver may wrap the error): what createAgentKey turns into "name taken".
    const messages: string[] = [];
    for (let e: unknown = refusal; e instanceof Error; e = e.cause) messages.push(e.message);
    expect(messages.join(" | ")).toMatch(/UNIQUE constraint failed.*agent_keys_live_name_idx/);
    // Beside a revoked key, or for another agent, the name is free.
    await db().insert(agentKeys).values({ ...row, id: "key_y", hash: "hash-y", revokedAt: "2026-01-01T00:00:00.000Z" });
    await db().insert(agentKeys).values({ ...row, id: "key_z", hash: "hash-z", agentId: "echo" });
  });
});
