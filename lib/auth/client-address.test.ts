/**
 * Which address a sign-in is counted against: what a client writes in
 * X-Forwarded-For counts only behind as many proxies as the operator trusts,
 * and the connection's own address comes from a real HTTP server.
 * tagPeerAddresses changes http.Server for good, so this file runs in a process of its
 * own (vitest.config.ts): every later server in it would have its requests tagged.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressKey, clientAddress } from "./client-address";
import { peerAddress, tagPeerAddresses } from "./peer-address";

/** The headers a real server hands on for a request sent with `sent`, as Next would pass them to an action. */
let received: (sent: Record<string, string>) => Promise<Headers>;
let server: http.Server;

beforeAll(async () => {
  tagPeerAddresses();
  let last: Headers = new Headers();
  server = http.createServer((request, response) => {
    last = new Headers(Object.entries(request.headers).map(([name, value]): [string, string] => [name, String(value)]));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  received = (sent) =>
    new Promise((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, headers: sent, agent: false }, (response) => {
          response.resume();
          response.on("end", () => resolve(last));
        })
        .on("error", reject);
    });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("with no trusted proxy (the default)", () => {
  it("ignores X-Forwarded-For, however it rotates, and counts the connection's address", async () => {
    for (const forged of ["198.51.100.1", "203.0.113.2, 198.51.100.3", "not an address"]) {
      expect(clientAddress(await received({ "x-forwarded-for": forged }), 0)).toBe("127.0.0.1");
    }
  });

  it("has no address at all outside a tagged request, rather than believe a header", () => {
    expect(clientAddress(new Headers({ "x-forwarded-for": "198.51.100.1" }), 0)).toBeNull();
  });

  it("cannot be told the connection's address by a client guessing the tag's name", async () => {
    const forged = await received({ "x-mnemo-peer": "198.51.100.1", "x-forwarded-for": "198.51.100.1" });
    expect(peerAddress(forged)).toBe("127.0.0.1");
  });
});

describe("behind trusted proxies", () => {
  it("takes the entry the nearest trusted proxy added, whatever the client put before it", async () => {
    for (const forged of ["1.1.1.1", "2.2.2.2, 3.3.3.3"]) {
      const headers = await received({ "x-forwarded-for": `${forged}, 192.0.2.44` });
      expect(clientAddress(headers, 1)).toBe("192.0.2.44");
    }
    expect(clientAddress(await received({ "x-forwarded-for": "9.9.9.9, 192.0.2.44, 10.0.0.2" }), 2)).toBe("192.0.2.44");
  });

  it("falls back to the connection's address when fewer proxies than trusted wrote the header", async () => {
    expect(clientAddress(await received({ "x-forwarded-for": "192.0.2.44" }), 2)).toBe("127.0.0.1");
    expect(clientAddress(await received({}), 1)).toBe("127.0.0.1");
  });
});

describe("addressKey", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::9", "2001:db8:1:2::/64"],
    ["[2001:DB8::1]", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
  ])("counts %s as %s: one IPv6 host holds a whole /64", (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
