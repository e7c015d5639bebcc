/**
 * A real HTTP receiver on 127.0.0.1 for the webhook tests: it keeps every request's
 * headers and raw bytes, and answers as the test says (a status, a redirect, or
 * nothing at all, to make the sender time out).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { path: string; headers: IncomingHttpHeaders; body: Buffer };
export type Answer = number | { redirect: string } | "hang" | { delayMs: number; status: number };

export type Receiver = {
  url: (path?: string) => string;
  received: Received[];
  /** Decides the answer to each request; 204 by default. */
  answer: (request: Received, index: number) => Answer;
  close: () => Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: () => "",
    received: [],
    answer: () => 204,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const got: Received = { path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks) };
      const index = receiver.received.push(got) - 1;
      const answer = receiver.answer(got, index);
      if (answer === "hang") {
        hanging.add(response);
        return;
      }
      if (typeof answer === "number") {
        response.writeHead(answer).end();
      } else if ("redirect" in answer) {
        response.writeHead(302, { location: answer.redirect }).end();
      } else {
        setTimeout(() => response.writeHead(answer.status).end(), answer.delayMs);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = (path = "/hooks") => `http://127.0.0.1:${port}${path}`;
  return receiver;
}
