/**
 * The address at the other end of a request's connection. Next gives server code
 * no way to it (it copies it into X-Forwarded-For only when that header is absent,
 * so anyone can overwrite it), so each server process tags every request with it,
 * under a header name chosen at random per process: a client cannot forge a name
 * it cannot know, and before the tag is installed (or outside a server) there is
 * simply no peer address.
 */
import { randomBytes } from "node:crypto";
import http, { type IncomingMessage } from "node:http";

// On globalThis: instrumentation and the app's bundles are separate copies of this module in one process.
const shared = globalThis as { mnemoPeerHeader?: string };

/** Installs the tag on every HTTP server of this process (instrumentation.ts calls it once at start). */
export function tagPeerAddresses(): void {
  if (shared.mnemoPeerHeader) return;
  const name = `x-mnemo-peer-${randomBytes(16).toString("hex")}`;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function tagged(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === "request") {
      const request = args[0] as IncomingMessage;
      const address = request.socket?.remoteAddress;
      if (address) request.headers[name] = address;
    }
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
  shared.mnemoPeerHeader = name;
}

/** The connection's address of a request tagged by tagPeerAddresses, or null. */
export function peerAddress(incoming: Headers): string | null {
  const name = shared.mnemoPeerHeader;
  return (name && incoming.get(name)) || null;
}
