/**
 * `npm start`: everything a fresh clone needs, in order — check the settings, make
 * and keep an AUTH_SECRET, migrate, seed the demo into an empty database, build
 * when the sources are newer than the build, then serve with `next start`.
 * `--dev` serves with `next dev` instead of building.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { DEMO_PASSWORD, DEMO_PEOPLE, seedDemo } from "@/db/seed";
import { authSecret, readConfig, scaleOutAdvice, type Config } from "@/lib/config";
import { purgeExpired } from "@/lib/memory/writes";
import { DRAIN_MESSAGE } from "@/lib/ops/draining";
import { serverNodeOptions } from "@/lib/ops/node-options";

const ROOT = process.cwd();
const SOURCES = ["app", "components", "lib", "db", "public", "proxy.ts", "instrumentation.ts", "next.config.mjs", "postcss.config.mjs", "package.json", "tsconfig.json"];
/** How long requests in flight may take to finish after SIGTERM before the server is stopped hard. */
const SHUTDOWN_GRACE_MS = 10_000;
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

/** The newest modification time under the given paths (skipping tests, which the build ignores). */
function newestSource(paths: string[]): number {
  let newest = 0;
  const visit = (target: string) => {
    if (!existsSync(target)) return;
    const stat = statSync(target);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(target)) visit(path.join(target, entry));
    } else if (!/\.test\.tsx?$/.test(target)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const p of paths) visit(path.join(ROOT, p));
  return newest;
}

function buildIsCurrent(): boolean {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  return existsSync(buildId) && statSync(buildId).mtimeMs >= newestSource(SOURCES);
}

function fail(message: string): never {
  console.error(`mnemo: ${message}`);
  process.exit(1);
}

async function prepareDatabase(config: Config): Promise<void> {
  const db = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN);
  try {
    await migrateDatabase(db);
    const purged = await purgeExpired(db);
    if (purged) console.log(`Purged ${purged} facts forgotten more than 7 days ago.`);
    if (!config.MNEMO_DEMO) return;
    const keys = await seedDemo(db, { scout: config.MNEMO_DEMO_SCOUT_KEY, echo: config.MNEMO_DEMO_ECHO_KEY });
    if (!keys) return;
    console.log("\nSeeded the demo workspace. Sign in as any of these, password", JSON.stringify(DEMO_PASSWORD));
    for (const person of DEMO_PEOPLE) console.log(`  ${person.email.padEnd(18)} ${person.name} (${person.role} of ${person.workspace})`);
    if (keys.generated) {
      console.log("\nDemo agent keys (shown once; set MNEMO_DEMO_SCOUT_KEY / MNEMO_DEMO_ECHO_KEY to choose them):");
      console.log(`  scout (acme):  ${keys.scout}`);
      console.log(`  echo (globex): ${keys.echo}`);
    }
    console.log("");
  } finally {
    db.$client.close();
  }
}

async function main() {
  const dev = process.argv.includes("--dev");
  let config: Config;
  let secret: string;
  try {
    config = readConfig();
    secret = authSecret();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  try {
    await prepareDatabase(config);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }

  // Next's telemetry stays off unless the operator turns it on.
  const nextEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" };
  if (!dev && !buildIsCurrent()) {
    console.log("Building the app (first start, or the sources changed)…");
    const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: nextEnv });
    if (build.status !== 0) fail("the build failed; see the output above.");
  }

  const env = {
    ...nextEnv,
    AUTH_SECRET: secret,
    AUTH_TRUST_HOST: "true",
    DATABASE_URL: config.DATABASE_URL,
    // The server's own Node options (lib/ops/node-options.ts); the build and `next dev` keep Node's defaults.
    ...(dev ? {} : { NODE_OPTIONS: serverNodeOptions(process.env.NODE_OPTIONS) }),
  };
  const args = [nextBin, dev ? "dev" : "start", "--port", String(config.PORT)];
  console.log(`Mnemo is starting on http://localhost:${config.PORT}`);
  const advice = config.NODE_ENV === "production" || !config.MNEMO_DEMO ? scaleOutAdvice() : null;
  if (advice) console.log(advice);
  // An IPC channel, so that a SIGTERM can first ask the server to drain (lib/ops/draining.ts).
  const server = spawn(process.execPath, args, { stdio: ["inherit", "inherit", "inherit", "ipc"], env });
  let stopping = false;
  const stop = (signal: "SIGINT" | "SIGTERM") => {
    if (stopping) return server.kill(signal);
    stopping = true;
    // SIGINT is a person at a terminal: stop now. SIGTERM is a deployment: drain first.
    const drainMs = signal === "SIGTERM" && !dev ? config.MNEMO_DRAIN_SECONDS * 1000 : 0;
    if (drainMs && server.connected) server.send(DRAIN_MESSAGE);
    setTimeout(() => server.kill(signal), drainMs).unref();
    // Next finishes the requests in flight, then exits; one that never ends must not block a restart.
    setTimeout(() => server.kill("SIGKILL"), drainMs + SHUTDOWN_GRACE_MS).unref();
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  server.on("exit", (code, signal) => process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0))));
}

void main();
