/**
 * Vitest's global setup for the remote-mode suite (vitest.remote.config.ts, issue
 * #19): in vitest's own process — apart from the test workers, as sqld is apart
 * from the app — a small control server hands each test database its own fresh
 * file behind its own stand-in (hrana-server.ts) on its own port. A database per
 * server keeps the tests as isolated as their files are in file mode, and needs
 * no namespaces (sqld picks those from the host name, which loopback cannot vary).
 *
 * The migrations run once, here, over the protocol (through a stand-in, as against
 * sqld), and so does seeding the demo into a second copy; each test database starts
 * as a copy of one of those files (POST /databases?template=demo for the seeded one),
 * so the suite's time goes to its tests rather than to the same migrations and seed
 * run hundreds of times. db/seed.test.ts still seeds over the protocol in its test.
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../db/client";
import { migrateDatabase } from "../../db/migrate";
import { seedDemo } from "../../db/seed";
import { startHranaServer, type HranaServer } from "./hrana-server";

declare module "vitest" {
  export interface ProvidedContext {
    hranaControl: string;
  }
}

/** The two starting points, made over Hrana: a migrated file, and a copy of it with the demo seeded. */
async function templates(dir: string): Promise<{ migrated: string; demo: string }> {
  const over = async (file: string, work: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<unknown>) => {
    const server = await startHranaServer({ file });
    try {
      const db = await openDatabase(server.url);
      await work(db);
      db.$client.close();
    } finally {
      // Every stream closed, so the whole database is in the file itself, ready to copy.
      await server.close();
    }
  };
  const migrated = path.join(dir, "migrated.db");
  const demo = path.join(dir, "demo.db");
  await over(migrated, migrateDatabase);
  copyFileSync(migrated, demo);
  // Random agent keys, as seedDemo makes them: a test that names its keys gets them written over (temp-db.ts).
  await over(demo, (db) => seedDemo(db));
  return { migrated, demo };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const templateDir = mkdtempSync(path.join(tmpdir(), "mnemo-remote-templates-"));
  const template = await templates(templateDir);
  const databases = new Map<string, { server: HranaServer; dir: string }>();
  let next = 0;
  const control = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const asked = new URL(req.url ?? "/", "http://control");
    const route = asked.pathname;
    if (req.method === "POST" && route === "/databases") {
      const dir = mkdtempSync(path.join(tmpdir(), "mnemo-remote-"));
      const file = path.join(dir, "mnemo.db");
      copyFileSync(asked.searchParams.get("template") === "demo" ? template.demo : template.migrated, file);
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
    rmSync(templateDir, { recursive: true, force: true });
  };
}
