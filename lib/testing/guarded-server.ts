/**
 * A Node HTTP server in the test process that hands requests to the route
 * handlers the way `next start` does — a web Request made from the Node request,
 * which fails for TRACE or an undecodable path just as Next's does — behind the
 * HTTP edge (lib/http/edge.ts), as instrumentation.ts puts it in production.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { guardHttpServers } from "@/lib/http/edge";
import { dispatch } from "./route-dispatch";

async function toWebRequest(incoming: http.IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const body = chunks.length && !["GET", "HEAD"].includes(incoming.method!) ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  return new Request(`http://mnemo.test${incoming.url}`, { method: incoming.method, headers, body });
}

export async function startGuardedServer(): Promise<{ port: number; close: () => Promise<void> }> {
  guardHttpServers();
  const server = http.createServer(async (incoming, outgoing) => {
    try {
      const response = await dispatch(await toWebRequest(incoming));
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    } catch {
      // What Next's server answers when building the request or routing it throws.
      outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end("Internal Server Error");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
