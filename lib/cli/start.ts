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
import { authSecret, readConfig, type Config } from "@/lib/config";
import { purgeExpired } from "@/lib/memory/writes";

const ROOT = process.cwd();
const SOURCES = ["app", "components", "lib", "db", "public", "proxy.ts", "instrumentation.ts", "next.config.mjs", "postcss.config.mjs", "package.json", "tsconfig.json"];
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

  if (!dev && !buildIsCurrent()) {
    console.log("Building the app (first start, or the sources changed)…");
    const build = spawnSync(process.execPath, [nextBin, "build"], {
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" },
    });
    if (build.status !== 0) fail("the build failed; see the output above.");
  }

  const env = {
    ...process.env,
    AUTH_SECRET: secret,
    AUTH_TRUST_HOST: "true",
    DATABASE_URL: config.DATABASE_URL,
    NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1",
  };
  const args = [nextBin, dev ? "dev" : "start", "--port", String(config.PORT)];
  console.log(`Mnemo is starting on http://localhost:${config.PORT}`);
  const server = spawn(process.execPath, args, { stdio: "inherit", env });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.kill(signal));
  }
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

void main();
