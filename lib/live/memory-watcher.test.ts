/**
 * The live watcher on a real database file: one read per tick whatever the number
 * of streams, a moved version reaches every stream of that agent once, a stream
 * that comes back with an older version hears "changed" at once, and a person
 * signed out everywhere or removed from the workspace has their stream ended.
 * Ticks are driven by the test (interval 0), so nothing here depends on timing.
 */
import { describe, expect, it } from "vitest";
import { tempDbForTests } from "@/lib/testing/temp-db";
import { changedEvent, liveStream } from "./event-stream";
import { HEARTBEAT_MS, liveVersionOf, MemoryWatcher, parseVersion, type LiveListener } from "./memory-watcher";

const t = tempDbForTests({ demo: true, each: true });

type Heard = { changed: string[]; ended: number };

function listener(over: Partial<LiveListener> = {}): LiveListener & { heard: Heard } {
  const heard: Heard = { changed: [], ended: 0 };
  return {
    agentId: "scout",
    workspaceId: "acme",
    userId: "ana",
    sessionVersion: 0,
    expiresAt: Date.now() + 3_600_000,
    seen: null,
    changed: (version) => heard.changed.push(version),
    ended: () => heard.ended++,
    ...over,
    heard,
  };
}

async function sessionVersion(userId: string): Promise<number> {
  const result = await t.db.$client.execute({ sql: "SELECT session_version AS v FROM users WHERE id = ?", args: [userId] });
  return Number(result.rows[0].v);
}

/** A change to one of Scout's facts, as any writer makes it (the triggers bump the version). */
async function touchScout(): Promise<void> {
  await t.db.$client.execute("UPDATE facts SET pinned = 1 - pinned WHERE id = (SELECT id FROM facts WHERE agent_id = 'scout' LIMIT 1)");
}

describe("MemoryWatcher", () => {
  it("reads once per tick whatever the number of streams, and tells every stream of the agent once per change", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const version = await liveVersionOf(t.db, "scout");
    const sv = await sessionVersion("ana");
    const streams = Array.from({ length: 200 }, () => listener({ seen: version, sessionVersion: sv }));
    for (const stream of streams) watcher.subscribe(stream);

    await watcher.tick();
    expect(watcher.reads).toBe(1);
    expect(streams.every((s) => s.heard.changed.length === 0 && s.heard.ended === 0)).toBe(true);

    await touchScout();
    await watcher.tick();
    await watcher.tick();
    expect(watcher.reads).toBe(3);
    const moved = await liveVersionOf(t.db, "scout");
    expect(moved).not.toBe(version);
    expect(streams.every((s) => s.heard.changed.length === 1 && s.heard.changed[0] === moved)).toBe(true);
  });

  it("does not read at all with no stream open", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const stop = watcher.subscribe(listener({ seen: "0.0" }));
    stop();
    await watcher.tick();
    expect(watcher.reads).toBe(0);
  });

  it("a change to another agent's memory tells Scout's streams nothing", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const stream = listener({ seen: await liveVersionOf(t.db, "scout") });
    watcher.subscribe(stream);
    await t.db.$client.execute("UPDATE facts SET pinned = 1 - pinned WHERE agent_id = 'echo'");
    await watcher.tick();
    expect(stream.heard.changed).toEqual([]);
  });

  it("a membership change moves the version too: it may change what the person sees", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const stream = listener({ seen: await liveVersionOf(t.db, "scout") });
    watcher.subscribe(stream);
    await t.db.$client.execute("DELETE FROM channel_members WHERE channel_id = 'support' AND user_id = 'ana'");
    await watcher.tick();
    expect(stream.heard.changed).toHaveLength(1);
  });

  it("resumes: a stream whose page is older than the version hears 'changed' at once, one that is current hears nothing", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const before = await liveVersionOf(t.db, "scout");
    const open = listener({ seen: before });
    watcher.subscribe(open);
    await watcher.tick();
    await touchScout();
    const now = await liveVersionOf(t.db, "scout");
    await watcher.tick();

    // Reconnecting with Last-Event-ID = the version before the change: told at once, before any tick.
    const behind = listener({ seen: before });
    watcher.subscribe(behind);
    expect(behind.heard.changed).toEqual([now]);
    const current = listener({ seen: now });
    watcher.subscribe(current);
    await watcher.tick();
    expect(current.heard.changed).toEqual([]);
  });

  it("ends the stream of a person signed out everywhere, and of one removed from the workspace", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const ana = listener({ userId: "ana", sessionVersion: await sessionVersion("ana"), seen: "0.0" });
    const max = listener({ userId: "max", sessionVersion: await sessionVersion("max"), seen: "0.0" });
    watcher.subscribe(ana);
    watcher.subscribe(max);
    await watcher.tick();
    expect([ana.heard.ended, max.heard.ended]).toEqual([0, 0]);

    await t.db.$client.execute("UPDATE users SET session_version = session_version + 1 WHERE id = 'ana'");
    await t.db.$client.execute("DELETE FROM memberships WHERE user_id = 'max' AND workspace_id = 'acme'");
    await watcher.tick();
    expect([ana.heard.ended, max.heard.ended]).toEqual([1, 1]);
    expect(watcher.size).toBe(0);
  });

  it("ends a stream whose token has expired", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const stream = listener({ sessionVersion: await sessionVersion("ana"), expiresAt: Date.now() - 1 });
    watcher.subscribe(stream);
    await watcher.tick();
    expect(stream.heard.ended).toBe(1);
  });

  it("takes only versions of the right shape from a browser", () => {
    expect(parseVersion("12.3")).toBe("12.3");
    for (const bad of [null, "", "12", "a.b", "1.2.3", "1.2\nid: x"]) expect(parseVersion(bad)).toBeNull();
  });
});

describe("liveStream", () => {
  async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, done: (text: string) => boolean): Promise<string> {
    let text = "";
    const utf8 = new TextDecoder();
    while (!done(text)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += utf8.decode(chunk.value);
    }
    return text;
  }

  it("sends retry, then 'changed' with the version as the id, a heartbeat when idle, and ends with the session", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const seen = await liveVersionOf(t.db, "scout");
    const abort = new AbortController();
    const body = liveStream(
      watcher,
      { agentId: "scout", workspaceId: "acme", userId: "ana", sessionVersion: await sessionVersion("ana"), expiresAt: Date.now() + 3_600_000, seen },
      abort.signal,
    );
    const reader = body.getReader();
    expect(await readUntil(reader, (text) => text.includes("\n\n"))).toMatch(/^retry: \d+\n/);

    await touchScout();
    await watcher.tick();
    const moved = (await liveVersionOf(t.db, "scout"))!;
    expect(await readUntil(reader, (text) => text.endsWith("\n\n"))).toBe(changedEvent(moved));

    await watcher.tick(Date.now() + HEARTBEAT_MS);
    expect(await readUntil(reader, (text) => text.endsWith("\n\n"))).toBe(": heartbeat\n\n");

    await t.db.$client.execute("UPDATE users SET session_version = session_version + 1 WHERE id = 'ana'");
    await watcher.tick();
    const rest = await readUntil(reader, () => false);
    expect(rest).toContain("event: ended");
    expect(watcher.size).toBe(0);
  });

  it("stops watching when the browser goes away", async () => {
    const watcher = new MemoryWatcher(t.db, 0);
    const abort = new AbortController();
    liveStream(watcher, { agentId: "scout", workspaceId: "acme", userId: "ana", sessionVersion: 0, expiresAt: Date.now() + 60_000, seen: null }, abort.signal);
    expect(watcher.size).toBe(1);
    abort.abort();
    expect(watcher.size).toBe(0);
  });
});
