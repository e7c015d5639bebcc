/**
 * Where a request came from, for counting sign-in attempts. X-Forwarded-For is
 * written by whoever sends the request, so only the entries added by the
 * operator's own proxies are believed: MNEMO_TRUSTED_PROXIES of them, counted
 * from the right. With none, only the connection's own address counts.
 */
import { isIPv6 } from "node:net";
import { headers } from "next/headers";
import { readConfig } from "@/lib/config";
import { peerAddress } from "./peer-address";

/** The client's address as the nearest trusted proxy saw it, else the connection's; null when neither is known. */
export function clientAddress(incoming: Headers, trustedProxies: number): string | null {
  const peer = peerAddress(incoming);
  if (trustedProxies === 0) return peer && addressKey(peer);
  const hops = (incoming.get("x-forwarded-for") ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  const seen = hops.length >= trustedProxies ? hops[hops.length - trustedProxies] : peer;
  return seen && addressKey(seen);
}

/**
 * The address as limits count it. One IPv6 host is handed a whole /64, so its
 * addresses count as one; an IPv4 address arriving as ::ffff:a.b.c.d counts as a.b.c.d.
 */
export function addressKey(address: string): string {
  const plain = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped) return mapped[1];
  if (!isIPv6(plain)) return plain.slice(0, 64);
  const [head, tail = ""] = plain.split("::");
  const left = head ? head.split(":") : [];
  const right = plain.includes("::") && tail ? tail.split(":") : [];
  // A dotted IPv4 tail stands for two groups.
  const width = [...left, ...right].reduce((sum, group) => sum + (group.includes(".") ? 2 : 1), 0);
  const groups = plain.includes("::") ? [...left, ...Array(8 - width).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((group) => group.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

/** The current request's address, in a server action or page; null outside a request (scripts, tests). */
export async function requestAddress(): Promise<string | null> {
  let incoming: Headers;
  try {
    incoming = await headers();
  } catch {
    return null;
  }
  return clientAddress(incoming, readConfig().MNEMO_TRUSTED_PROXIES);
}
