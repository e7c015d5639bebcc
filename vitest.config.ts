import { readFileSync, readdirSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

/** Where the unit suite's test files are; bench/quality's keeps the labelled recall-quality set valid. */
const FOLDERS = ["lib", "db", "app", "bench/quality"];

/**
 * What a test file may do only in a process of its own: change the environment or a
 * global, replace a module, or reach the database through the app's own client (which
 * keeps the first DATABASE_URL it is given). Judged from the file's text, so a file that
 * starts doing one of these is isolated without anyone remembering to say so; a file
 * whose code under test changes something process-wide says "a process of its own".
 */
const NEEDS_ISOLATION =
  /process\.env|vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers)|testing\/(app-db|signed-in)|globalThis|a process of its own/;

function testFiles(folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(folder, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".test.ts"))
      .map((name) => path.join(folder, name)),
  );
}

/**
 * The files as two projects: those that need a process of their own get one each
 * (Vitest's default), and the rest share their processes' modules. Loading a test file's
 * modules again for each file cost the unit suite 72 of its 282 s of test time.
 * `globalSetup` is each project's, not the root's: the root's would run a third time.
 */
export function byIsolation(files: readonly string[], globalSetup: string[]): TestProjectInlineConfiguration[] {
  const isolated = files.filter((file) => NEEDS_ISOLATION.test(readFileSync(file, "utf8")));
  const shared = files.filter((file) => !isolated.includes(file));
  return [
    { extends: true, test: { name: "isolated", include: isolated, globalSetup } },
    { extends: true, test: { name: "shared", include: shared, isolate: false, globalSetup } },
  ];
}

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    // The global setup makes a folder for the run where each test process keeps the files its test databases copy
    // (lib/testing/temp-db.ts).
    projects: byIsolation(testFiles(FOLDERS), ["lib/testing/temp-db-setup.ts"]),
    environment: "node",
    // Per-request log lines would bury the test report; the log tests turn them back on. Agents' questions and
    // remembers are worked out on the request's thread: an agent thread (lib/api/agent-thread.ts) per test database
    // would start through tsx in about a second each, and its caches are out of reach of dropAllKept
    // (versioned-cache.ts), which tests that put rows back rely on; agent-thread.test.ts turns it on, and the
    // end-to-end tests run the built server's.
    env: { LOG_LEVEL: "warn", MNEMO_AGENT_THREAD: "off" },
    // Vitest keeps a core for itself, which on CI's two cores is one test process: two ran the unit suite in 246 s
    // instead of 328, and the remote suite in 171 s instead of 210-249 (its Hrana stand-in shares the cores).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Integration tests each open their own database file; argon2 and property runs take a moment.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
