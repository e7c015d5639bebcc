/**
 * A response written the way Next writes one (headers, then the body, then the end,
 * each after an await) leaves in one write to the socket; a stream's events still
 * arrive while it is open; a body larger than the socket's buffer still arrives
 * whole, with backpressure; and every server behind the edge gets this.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { guardHttpServers } from "./edge";
import { sendInOneWrite } from "./one-write";

type Handler = (request: http.IncomingMessage, response: http.ServerResponse) => void | Promise<void>;

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(handler: Handler): Promise<string> {
  const server = http.createServer((request, response) => void handler(request, response));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Counts the socket's writes to the system: one per _write, one per _writev (Node's stream implementation calls). */
function countWrites(socket: Socket): { calls: number } {
  const counted = { calls: 0 };
  const target = socket as unknown as Record<"_write" | "_writev", (...args: unknown[]) => unknown>;
  for (const name of ["_write", "_writev"] as const) {
    const write = target[name];
    target[name] = function (this: Socket, ...args: unknown[]) {
      counted.calls++;
      return write.apply(this, args);
    };
  }
  return counted;
}

/** A wait as Next's stream piping has between its writes: past Node's own holding of a write (until its next tick), within the turn. */
const tick = () => new Promise<void>((resolve) => process.nextTick(resolve));

/** As Next's route handlers send an answer: headers flushed first, then the body, then the end, an await between each. */
async function answerLikeNext(response: http.ServerResponse, body: string): Promise<void> {
  response.setHeader("Content-Type", "application/json");
  response.flushHeaders();
  await tick();
  response.write(body);
  await tick();
  response.end();
}

describe("sendInOneWrite", () => {
  it("sends an answer's headers, body and chunked end in one write, where they took three", async () => {
    const writes: number[] = [];
    const url = await serve(async (request, response) => {
      if (request.url === "/one") sendInOneWrite(response);
      const counted = countWrites(response.socket!);
      await answerLikeNext(response, JSON.stringify({ ok: true, facts: ["Releases go out on Thursdays."] }));
      response.on("finish", () => setImmediate(() => writes.push(counted.calls)));
    });
    for (const path of ["/one", "/plain"]) {
      const answer = await fetch(url + path);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect(await answer.json()).toEqual({ ok: true, facts: ["Releases go out on Thursdays."] });
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes).toEqual([1, 3]);
  });

  it("lets a stream's event out while the stream is open, before the next is written", async () => {
    let clientGot!: () => void;
    const firstArrived = new Promise<void>((resolve) => (clientGot = resolve));
    const url = await serve(async (_request, response) => {
      sendInOneWrite(response);
      response.writeHead(200, { "Content-Type": "text/event-stream" });
      response.write("data: one\n\n");
      // Were the socket held until the end, the client would never see "one", and this would time out.
      const seen = await Promise.race([firstArrived.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 2000))]);
      response.end(seen ? "data: two\n\n" : "data: late\n\n");
    });
    const answer = await fetch(url);
    const reader = answer.body!.getReader();
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
      if (text.includes("one")) clientGot();
    }
    expect(text).toBe("data: one\n\ndata: two\n\n");
  });

  it("keeps backpressure: a body far larger than the socket's buffer says when to wait, and arrives whole", async () => {
    const chunk = "x".repeat(256 * 1024);
    let refused = false;
    const url = await serve(async (_request, response) => {
      sendInOneWrite(response);
      for (let i = 0; i < 32; i++) {
        if (!response.write(`${i}:${chunk}\n`)) {
          refused = true;
          await new Promise((resolve) => response.once("drain", resolve));
        }
      }
      response.end();
    });
    const text = await (await fetch(url)).text();
    expect(refused).toBe(true);
    const lines = text.trimEnd().split("\n");
    expect(lines).toHaveLength(32);
    expect(lines.map((line) => line.split(":")[0])).toEqual(Array.from({ length: 32 }, (_, i) => String(i)));
    expect(lines.every((line) => line.endsWith(chunk))).toBe(true);
  }, 15_000);

  it("answers two requests in a row on one kept-alive connection", async () => {
    const url = await serve(async (request, response) => {
      sendInOneWrite(response);
      await answerLikeNext(response, JSON.stringify({ path: request.url }));
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (path: string) =>
      new Promise<{ body: string; socket: Socket }>((resolve, reject) => {
        http
          .get(url + path, { agent }, (response) => {
            let body = "";
            response.on("data", (part) => (body += part));
            response.on("end", () => resolve({ body, socket: response.socket }));
          })
          .on("error", reject);
      });
    const first = await get("/a");
    const second = await get("/b");
    agent.destroy();
    expect([first.body, second.body]).toEqual(['{"path":"/a"}', '{"path":"/b"}']);
    expect(second.socket).toBe(first.socket);
  });

  it("is what the edge gives every server's responses", async () => {
    guardHttpServers();
    const writes: number[] = [];
    const url = await serve(async (_request, response) => {
      const counted = countWrites(response.socket!);
      await answerLikeNext(response, '{"ok":true}');
      response.on("finish", () => setImmediate(() => writes.push(counted.calls)));
    });
    expect(await (await fetch(url)).json()).toEqual({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes).toEqual([1]);
  });
});
