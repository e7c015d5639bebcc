/**
 * The remote-mode suite (issue #19): the data layer, the agent API, the
 * authorization matrix and the fuzz suites again, every test database reached at
 * an http:// URL through a libSQL stand-in speaking Hrana over HTTP
 * (lib/testing/hrana-server.ts), so the code path of a libSQL server or Turso is
 * the one tested. `npm run test:remote`; `npm test` runs it after the unit tests.
 * (lib/testing/hrana-server.test.ts, which starts stand-ins of its own, and
 * hrana-break.test.ts, which runs one of these files against a broken stand-in,
 * run with the unit tests.)
 *
 * Kept to a few minutes: the migrations and the demo seed run once over the
 * protocol for each project (hrana-server-setup.ts) and each test database starts
 * as a copy; the property tests whose every case is hundreds of round trips run
 * fewer cases here than on a file — app/fuzz.test.ts a tenth, the recall cache's
 * property 6 of 25 — and say so where they set the count. Every other test runs as
 * on a file.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";
import base, { byIsolation } from "./vitest.config";

/** The test files of a folder that open a database: the others would only run again unchanged. */
function withDatabase(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => path.join(folder, name))
    .filter((file) => /testing\/(temp-db|app-db|demo-db)"/.test(readFileSync(file, "utf8")));
}

// Spread, not mergeConfig: that would add these projects to the base's instead of choosing them.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    projects: byIsolation(
      [
        ...withDatabase("lib/memory"),
        "db/migrate.test.ts",
        "db/check.test.ts",
        "db/seed.test.ts",
        "db/reader.test.ts",
        "lib/ops/readiness.test.ts",
        ...withDatabase("lib/api"),
        "app/api/v1/agent-api.test.ts",
        "app/authorization-matrix.test.ts",
        "app/fuzz.test.ts",
        "lib/http/fuzz.test.ts",
      ],
      ["lib/testing/hrana-server-setup.ts"],
    ),
    // Every query is an HTTP round trip here: property runs that take seconds on a file take minutes.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    env: { ...base.test?.env, MNEMO_TEST_DATABASE: "remote" },
  },
});
