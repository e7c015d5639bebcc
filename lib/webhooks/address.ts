/**
 * Where a webhook may be sent. An owner's URL must not turn the server into a way
 * to reach its own network: every address the name resolves to must be public
 * (unless MNEMO_WEBHOOKS_ALLOW_PRIVATE=1, for tests and on-premises setups), and the
 * connection is made to the address that was checked, so a second DNS answer
 * cannot swap in a private one.
 */
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  PRIVATE.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
] as const) {
  PRIVATE.addSubnet(net, bits, "ipv6");
}

export function allowPrivate(): boolean {
  return process.env.MNEMO_WEBHOOKS_ALLOW_PRIVATE === "1";
}

/** Whether an IP address is loopback, private, link-local or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, "ipv4");
  if (family !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is judged as IPv4.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], "ipv4");
  return PRIVATE.check(address, "ipv6");
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** The URL's form: http or https, a host, no user name or password in it. */
export function checkUrlForm(raw: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: "That is not a URL. Write it in full, like https://example.com/hooks/mnemo." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { ok: false, reason: "The URL must start with https:// (or http://)." };
  }
  if (!url.hostname) return { ok: false, reason: "The URL needs a host name." };
  if (url.username || url.password) return { ok: false, reason: "Leave the user name and password out of the URL." };
  if (raw.trim().length > 2000) return { ok: false, reason: "The URL is too long (at most 2,000 characters)." };
  return { ok: true, url };
}

export type Resolved = { ok: true; address: string; family: 4 | 6 } | { ok: false; reason: string };

/** Resolves the host and checks every address it has; answers the first to connect to. */
export async function resolveTarget(hostname: string): Promise<Resolved> {
  const host = hostname.replace(/^\[|\]$/g, "");
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      return { ok: false, reason: `The host ${host} could not be found.` };
    }
  }
  if (!addresses.length) return { ok: false, reason: `The host ${host} could not be found.` };
  if (!allowPrivate() && addresses.some((a) => isPrivateAddress(a.address))) {
    return { ok: false, reason: `${host} is a private or local address; webhooks go only to public addresses.` };
  }
  const first = addresses[0];
  return { ok: true, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** The form and the addresses, as when an owner adds an endpoint. */
export async function checkWebhookUrl(raw: string): Promise<UrlCheck> {
  const form = checkUrlForm(raw);
  if (!form.ok) return form;
  const target = await resolveTarget(form.url.hostname);
  return target.ok ? form : target;
}
