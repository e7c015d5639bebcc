/**
 * Vitest's global setup for the remote-mode suite (vitest.remote.config.ts, issue
 * #19): in vitest's own process — apart from the test workers, as sqld is apart
 * from the app — a small control server hands each test database its own fresh
 * file behind its own stand-in (hrana-server.ts) on its own port. A database per
 * server keeps the tests as isolated as their files are in file mode, and needs
 * no namespaces (sqld picks those from the host name, which loopback cannot vary).
 */
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startHranaServer, type HranaServer } from "./hrana-server";

declare module "vitest" {
  export interface ProvidedContext {
    hranaControl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databases = new Map<string, { server: HranaServer; dir: string }>();
  let next = 0;
  const control = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const route = new URL(req.url ?? "/", "http://control").pathname;
    if (req.method === "POST" && route === "/databases") {
      const dir = mkdtempSync(path.join(tmpdir(), "mnemo-remote-"));
      const file = path.join(dir, "mnemo.db");
      // MNEMO_HRANA_BREAK=drop-transactions: the suite against a stand-in with that detail broken, to see it fail.
      startHranaServer({ file, dropTransactionsBetweenRequests: process.env.MNEMO_HRANA_BREAK === "drop-transactions" }).then(
        (server) => {
          const id = String(++next);
          databases.set(id, { server, dir });
          answer(200, { id, url: server.url, file });
        },
        (error: unknown) => answer(500, { error: String(error) }),
      );
      return;
    }
    const id = /^\/databases\/(\w+)$/.exec(route)?.[1];
    const database = id ? databases.get(id) : undefined;
    if (req.method === "DELETE" && id && database) {
      databases.delete(id);
      database.server.close().finally(() => {
        rmSync(database.dir, { recursive: true, force: true });
        answer(200, {});
      });
      return;
    }
    answer(404, { error: "unknown" });
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  project.provide("hranaControl", `http://127.0.0.1:${(control.address() as AddressInfo).port}`);
  return async () => {
    control.closeAllConnections();
    control.close();
    for (const { server, dir } of databases.values()) {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  };
}
