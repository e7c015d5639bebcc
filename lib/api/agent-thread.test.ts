/**
 * The agent thread (agent-thread.ts), started as the server starts it but from
 * source (through tsx), on the app's own database: questions answered there carry the
 * very bytes the request's own thread makes, facts kept there are the API's answers,
 * refusals come back as the API's, a change is seen at once by either thread, writes
 * from both threads at once all land, a thread that dies loses no job, and it closes
 * with the database.
 */
import type { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { closeDb, getDb } from "@/db";
import { appDemoDbForFile, DEMO_KEYS } from "@/lib/testing/app-db";
import type { RecallOutput } from "@/lib/validation/agent-api";
import { utcDay } from "@/lib/memory/rules";
import { flushUsage } from "@/lib/memory/usage";
import * as memoriesRoute from "@/app/api/v1/memories/route";
import * as memoryRoute from "@/app/api/v1/memories/[id]/route";
import * as recallRoute from "@/app/api/v1/recall/route";
import { authenticateAgent } from "./auth";
import { readAll } from "@/db/client";
import type { RememberInput } from "@/lib/validation/agent-api";
import { recallJsonForAgent, rememberOnThisThread, type RememberAnswer } from "./agent-memory";
import { agentThreadFor, REST_MS, type AgentThread } from "./agent-thread";

// Set before the app opens its database: the thread is decided once per database.
process.env.MNEMO_AGENT_THREAD = "on";
afterAll(() => {
  process.env.MNEMO_AGENT_THREAD = "off";
});
appDemoDbForFile();

const BASE = "http://mnemo.test";
const auth = { authorization: `Bearer ${DEMO_KEYS.scout}` };
const echoAuth = { authorization: `Bearer ${DEMO_KEYS.echo}` };
const noParams = { params: Promise.resolve({}) };

type Input = { channel: string; asker?: string; q?: string; limit?: number; budget?: number };
const recallUrl = (input: Input) =>
  `${BASE}/api/v1/recall?${new URLSearchParams(Object.entries(input).map(([name, value]) => [name, String(value)]))}`;
const recall = (input: Input, headers = auth) => recallRoute.GET(new Request(recallUrl(input), { headers }), noParams as never);

async function answered(input: Input, headers = auth): Promise<string> {
  const response = await recall(input, headers);
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text;
}

/** What the request's own thread answers for the same input. */
async function answeredHere(input: Input, headers = auth): Promise<string> {
  const agent = await authenticateAgent(getDb(), new Request(recallUrl(input), { headers }));
  return (await recallJsonForAgent(getDb(), agent, input)).json;
}

/** Remember through the API's route, as an agent does. */
async function remembered(input: RememberInput, headers = auth): Promise<{ status: number; body: { memory?: { id: string; body: string }; deduplicated?: boolean; error?: { code: string } } }> {
  const response = await memoriesRoute.POST(
    new Request(`${BASE}/api/v1/memories`, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(input) }),
    noParams as never,
  );
  return { status: response.status, body: await response.json() };
}

/** How many of the agent's live facts read exactly `body`. */
async function kept(body: string): Promise<number> {
  const rows = await readAll<{ n: number }>(getDb(), "SELECT count(*) AS n FROM facts WHERE body = ? AND forgotten_at IS NULL", [body]);
  return rows[0].n;
}

const thread = (): AgentThread => agentThreadFor(getDb())!;

/** Once the rest after a death is over, the thread starts again (and stays started for the tests after). */
function startsAgainAfterRest(): void {
  vi.spyOn(Date, "now").mockReturnValue(Date.now() + REST_MS + 1);
  try {
    expect(thread().start()).toBe(true);
  } finally {
    vi.restoreAllMocks();
  }
}
/** Each fact's recall count as written to the database. */
async function usageCounts(): Promise<Map<string, number>> {
  const rows = await readAll<{ id: string; n: number }>(getDb(), "SELECT facts.id AS id, u.recalled_count AS n FROM fact_usage u JOIN facts ON facts.seq = u.fact_seq", []);
  return new Map(rows.map(({ id, n }) => [id, Number(n)]));
}
const bodies = (text: string) => (JSON.parse(text) as RecallOutput).facts.map((fact) => fact.body);

describe("the agent thread", () => {
  it("answers questions, with the bytes the request's own thread makes; recall without one stays here", async () => {
    expect(thread()).not.toBeNull();
    const inputs: Input[] = [
      { channel: "support", asker: "ana", q: "refund approval" },
      { channel: "support", asker: "ana", q: "refund approval", limit: 2 },
      { channel: "dm-ana", asker: "ana", q: "What language should I answer in?", budget: 60 },
      { channel: "general", asker: "max", q: "é ünïcode, \"quotes\" & ampersands?\nand a newline" },
    ];
    const before = thread().answered;
    for (const input of inputs) expect(await answered(input), JSON.stringify(input)).toBe(await answeredHere(input));
    expect(thread().answered - before).toBe(inputs.length);

    expect(bodies(await answered({ channel: "support", asker: "ana", q: "refund approval" })).slice(0, 2)).toEqual([
      "Releases go out on Thursdays.",
      "Refunds over $500 need a manager's approval.",
    ]);
    const counted = thread().answered;
    await answered({ channel: "support", asker: "ana" });
    expect(thread().answered).toBe(counted);
  });

  it("gives each request its own answer when two agents of two workspaces ask at once", async () => {
    const asks: [Input, typeof auth][] = [
      [{ channel: "support", asker: "ana", q: "refund approval" }, auth],
      [{ channel: "lobby", asker: "gina", q: "where does Globex ship from?" }, echoAuth],
      [{ channel: "leadership", asker: "max", q: "budget freeze" }, auth],
      [{ channel: "dm-gina", asker: "gina", q: "shipping" }, echoAuth],
      [{ channel: "dm-ana", asker: "ana", q: "What language should I answer in?" }, auth],
    ];
    const expected = await Promise.all(asks.map(([input, headers]) => answeredHere(input, headers)));
    const before = thread().answered;
    // Each asked four times, interleaved, all in flight together.
    const rounds = Array.from({ length: 4 }, () => asks.map(([input, headers]) => answered(input, headers)));
    for (const round of rounds) expect(await Promise.all(round)).toEqual(expected);
    expect(thread().answered - before).toBe(4 * asks.length);
    expect(bodies(expected[1])).toEqual(["Globex ships from Springfield."]);
    expect(expected.filter((_, i) => i !== 2).join("")).not.toContain("budget freeze");
  });

  it("refuses as the API does: a channel of nowhere, an asker who cannot read it", async () => {
    const before = thread().answered;
    const nowhere = await recall({ channel: "lobby", asker: "ana", q: "anything" });
    expect(nowhere.status).toBe(404);
    expect((await nowhere.json()).error.code).toBe("channel_not_found");
    const unread = await recall({ channel: "leadership", asker: "gus", q: "budget" });
    expect(unread.status).toBe(403);
    expect((await unread.json()).error.code).toBe("cannot_read");
    expect(thread().answered - before).toBe(2);
  });

  it("sees a fact kept a moment ago, and no longer one forgotten", async () => {
    const kept = await remembered({ channel: "dm-ana", asker: "ana", fact: "Ana's espresso machine is a Gaggia Classic." });
    expect(kept.status).toBe(201);
    const memory = kept.body.memory!;
    const question = { channel: "dm-ana", asker: "ana", q: "which espresso machine?" };
    const before = thread().answered;
    expect(bodies(await answered(question))).toContain("Ana's espresso machine is a Gaggia Classic.");

    const forgot = await memoryRoute.DELETE(
      new Request(`${BASE}/api/v1/memories/${memory.id}?channel=dm-ana&asker=ana`, { method: "DELETE", headers: auth }),
      { params: Promise.resolve({ id: memory.id }) } as never,
    );
    expect(forgot.status).toBe(204);
    expect(bodies(await answered(question))).not.toContain("Ana's espresso machine is a Gaggia Classic.");
    expect(thread().answered - before).toBe(2);
  });

  it("keeps the facts agents remember: a new one, a repeat, refusals as the API's; both threads see it at once", async () => {
    const fact = "Ana's standing desk is in room 4B.";
    const where = { channel: "dm-ana", asker: "ana" };
    const before = thread().answered;
    const first = await remembered({ ...where, fact });
    expect(first.status).toBe(201);
    expect(first.body.memory!.body).toBe(fact);
    const again = await remembered({ ...where, fact });
    expect(again.status).toBe(200);
    expect(again.body.deduplicated).toBe(true);
    expect(again.body.memory!.id).toBe(first.body.memory!.id);
    expect(thread().answered - before).toBe(2);
    expect(await kept(fact)).toBe(1);

    // Recall without a question is answered here, with one on the thread: the fact is in both at once.
    expect(bodies(await answered(where))).toContain(fact);
    expect(bodies(await answered({ ...where, q: "where is the standing desk?" }))).toContain(fact);

    const secret = await remembered({ ...where, fact: "The deploy token is ghp_0123456789abcdefghijklmnopqrstuvwxyzAB." });
    expect([secret.status, secret.body.error?.code]).toEqual([422, "looks_like_secret"]);
    const nowhere = await remembered({ channel: "lobby", asker: "ana", fact: "Lobby plants get water on Mondays." });
    expect([nowhere.status, nowhere.body.error?.code]).toEqual([404, "channel_not_found"]);
    expect(thread().answered - before).toBe(5);
    expect(await kept("Lobby plants get water on Mondays.")).toBe(0);
  });

  it("lands every write when both threads write at once", async () => {
    const agent = await authenticateAgent(getDb(), new Request(`${BASE}/api/v1/memories`, { headers: auth }));
    const where = { channel: "dm-ana", asker: "ana" };
    const before = thread().answered;
    // Twenty facts through the route (the thread) and twenty on this thread's own connection, all in flight together.
    const writes = Array.from({ length: 40 }, (_, i) => {
      const fact = `Ana's shelf ${i} holds binder number ${1000 + i}.`;
      return i % 2
        ? remembered({ ...where, fact }).then((answer) => answer.status)
        : rememberOnThisThread(getDb(), agent, { ...where, fact }).then((answer) => answer.status);
    });
    expect(await Promise.all(writes)).toEqual(Array(40).fill(201));
    expect(thread().answered - before).toBe(20);
    for (let i = 0; i < 40; i++) expect(await kept(`Ana's shelf ${i} holds binder number ${1000 + i}.`)).toBe(1);
  });

  it("keeps a fact once when a remember is made again after the thread kept it, or when it dies holding remembers", async () => {
    const agent = await authenticateAgent(getDb(), new Request(`${BASE}/api/v1/memories`, { headers: auth }));
    // What the request's thread does with a job the thread committed but never answered: the same fact, deduplicated.
    const input = { channel: "dm-ana", asker: "ana", fact: "Ana's badge number is 4471." };
    const first = await thread().remember({ agent, input }, () => Promise.reject(new Error("not asked here")));
    expect(first.status).toBe(201);
    const again = await rememberOnThisThread(getDb(), agent, input);
    expect([again.status, again.body.deduplicated, again.body.memory.id]).toEqual([200, true, first.body.memory.id]);
    expect(await kept(input.fact)).toBe(1);

    const facts = Array.from({ length: 6 }, (_, i) => `Ana's locker ${i} has the code written on tape ${i}.`);
    let here = 0;
    const before = thread().answered;
    const asked = facts.map((fact) => {
      const held = { channel: "dm-ana", asker: "ana", fact };
      return thread().remember({ agent, input: held }, () => {
        here++;
        return rememberOnThisThread(getDb(), agent, held);
      });
    });
    await thread().kill();
    const answers: RememberAnswer[] = await Promise.all(asked);
    for (const answer of answers) expect([200, 201]).toContain(answer.status);
    // Each answered once: by the thread, or here (then 200 where the thread had committed it before it died).
    expect(here + thread().answered - before).toBe(facts.length);
    for (const fact of facts) expect(await kept(fact)).toBe(1);
    // It rests; past the rest it starts again for the tests after this one.
    startsAgainAfterRest();
  });

  it("loses no question when it dies: those it held are answered here, and it rests, then starts again", async () => {
    const input = { channel: "support", asker: "ana", q: "refund approval" };
    const expected = await answeredHere(input);
    const agent = await authenticateAgent(getDb(), new Request(recallUrl(input), { headers: auth }));
    let here = 0;
    const onThisThread = async () => {
      here++;
      return new TextEncoder().encode(await answeredHere(input));
    };
    // Posted to the thread at once; it dies before it has answered them.
    const asked = Array.from({ length: 8 }, () => thread().recall({ agent, input, today: utcDay() }, onThisThread));
    const answeredBefore = thread().answered;
    await thread().kill();
    for (const answer of await Promise.all(asked)) expect(new TextDecoder().decode(answer)).toBe(expected);
    expect(here + thread().answered - answeredBefore).toBe(8);
    expect(here).toBeGreaterThan(0);

    // Resting: the next question is ranked here, and the same.
    const after = thread().answered;
    expect(await answered(input)).toBe(expected);
    expect(thread().answered).toBe(after);
    expect(thread().start()).toBe(false);

    // After the rest it starts again, and answers.
    startsAgainAfterRest();
    expect(await answered(input)).toBe(expected);
    expect(thread().answered).toBe(after + 1);
  });

  it("dies idle too: a kill with no job held ends it, and it rests", async () => {
    const input = { channel: "support", asker: "ana", q: "refund approval" };
    const expected = await answeredHere(input);
    const before = thread().answered;
    expect(await answered(input)).toBe(expected);
    expect(thread().answered).toBe(before + 1);
    // Nothing held: the thread ends on the message kill() sends, not on a job.
    await thread().kill();
    expect(thread().start()).toBe(false);
    expect(await answered(input)).toBe(expected);
    expect(thread().answered).toBe(before + 1);
    startsAgainAfterRest();
  });

  it("a reply it cannot read ends it between statements, never by terminate(); what it held is answered here", async () => {
    const input = { channel: "support", asker: "ana", q: "refund approval" };
    const expected = await answeredHere(input);
    const agent = await authenticateAgent(getDb(), new Request(recallUrl(input), { headers: auth }));
    expect(thread().start()).toBe(true);
    const worker = (thread() as unknown as { worker: Worker }).worker;
    const terminate = vi.spyOn(worker, "terminate");
    const onThisThread = async () => new TextEncoder().encode(await answeredHere(input));
    const asked = Array.from({ length: 4 }, () => thread().recall({ agent, input, today: utcDay() }, onThisThread));
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    worker.emit("messageerror", new Error("an unreadable reply"));
    await exited;
    for (const answer of await Promise.all(asked)) expect(new TextDecoder().decode(answer)).toBe(expected);
    expect(terminate).not.toHaveBeenCalled();
    expect(thread().start()).toBe(false);
    startsAgainAfterRest();
  });

  it("writes this thread's recall counts for it, and this thread writes them while it rests", async () => {
    // Recall without a question is answered, and counted, on this thread.
    const input = { channel: "support", asker: "ana" };
    const ids = (JSON.parse(await answered(input)) as RecallOutput).facts.map((fact) => fact.id);
    expect(ids.length).toBeGreaterThan(1);
    await flushUsage();
    const before = await usageCounts();

    const running = thread();
    const writeCounts = running.writeCounts.bind(running);
    let writtenHere = 0;
    const handed = vi.spyOn(running, "writeCounts").mockImplementation((batch, here) =>
      writeCounts(batch, () => {
        writtenHere++;
        return here();
      }),
    );
    for (let i = 0; i < 3; i++) await answered(input);
    await flushUsage();
    expect(handed).toHaveBeenCalled();
    expect(writtenHere).toBe(0);
    const written = await usageCounts();
    for (const id of ids) expect(written.get(id)).toBe((before.get(id) ?? 0) + 3);

    // Dead and resting: the batches are written here, none lost.
    await running.kill();
    expect(running.start()).toBe(false);
    for (let i = 0; i < 2; i++) await answered(input);
    await flushUsage();
    expect(writtenHere).toBeGreaterThan(0);
    const after = await usageCounts();
    for (const id of ids) expect(after.get(id)).toBe((before.get(id) ?? 0) + 5);
    vi.restoreAllMocks();
    startsAgainAfterRest();
  });

  it("ends when closed, after answering what it holds, and is not started again", async () => {
    const input = { channel: "support", asker: "ana", q: "refund approval" };
    const expected = await answeredHere(input);
    const agent = await authenticateAgent(getDb(), new Request(recallUrl(input), { headers: auth }));
    const first = thread();
    expect(first.start()).toBe(true);
    const before = first.answered;
    let here = 0;
    const held = first.recall({ agent, input, today: utcDay() }, async () => {
      here++;
      throw new Error("not asked here");
    });
    await first.close();
    expect(new TextDecoder().decode(await held)).toBe(expected);
    expect(first.answered - before).toBe(1);
    expect(here).toBe(0);
    expect(first.start()).toBe(false);
  });

  it("closes with the app's database, and the next database has a thread of its own", async () => {
    const first = thread();
    closeDb();
    expect(first.start()).toBe(false);
    expect(thread()).not.toBe(first);
    expect(thread().start()).toBe(true);
    const before = thread().answered;
    expect(await answered({ channel: "support", asker: "ana", q: "refund approval" })).toBe(
      await answeredHere({ channel: "support", asker: "ana", q: "refund approval" }),
    );
    expect(thread().answered - before).toBe(1);
  });

  it("counts the answers it makes itself, and writes those counts before it ends", async () => {
    // A thread of its own; the one before writes the counts it holds as it closes, and is waited for. The new
    // one writes only when it closes: no timer of its own lands in the middle, however slow the machine.
    const previous = thread();
    closeDb();
    await previous.close();
    process.env.MNEMO_USAGE_FLUSH_MS = "600000";
    onTestFinished(() => {
      delete process.env.MNEMO_USAGE_FLUSH_MS;
    });
    const input = { channel: "support", asker: "ana", q: "refund approval" };
    const ids = (JSON.parse(await answeredHere(input)) as RecallOutput).facts.map((fact) => fact.id);
    expect(ids.length).toBeGreaterThan(1);
    await flushUsage();
    const before = await usageCounts();
    const answeredBefore = thread().answered;
    for (let i = 0; i < 3; i++) await answered(input);
    expect(thread().answered - answeredBefore).toBe(3);
    // This thread has nothing of them to write: they are the agent thread's.
    await flushUsage();
    expect(await usageCounts()).toEqual(before);
    await thread().close();
    const after = await usageCounts();
    for (const id of ids) expect(after.get(id)).toBe((before.get(id) ?? 0) + 3);
  });
});
