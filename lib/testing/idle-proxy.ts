/**
 * A TCP proxy on 127.0.0.1 that cuts a connection when no byte has crossed it, either
 * way, for `idleMs` — what nginx's proxy_read_timeout or a load balancer's idle
 * timeout does to a quiet stream. The live stream's tests go through it.
 */
import net from "node:net";
import type { AddressInfo } from "node:net";

export type IdleProxy = { port: number; cut: number; close: () => Promise<void> };

export async function startIdleProxy(target: { host: string; port: number }, idleMs: number): Promise<IdleProxy> {
  const sockets = new Set<net.Socket>();
  const proxy: IdleProxy = { port: 0, cut: 0, close: async () => undefined };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let timer: NodeJS.Timeout | undefined;
    const end = () => {
      clearTimeout(timer);
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        proxy.cut++;
        end();
      }, idleMs);
    };
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      from.on("data", (chunk) => {
        quiet();
        to.write(chunk);
      });
      from.on("close", end);
      from.on("error", end);
    }
    quiet();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}
