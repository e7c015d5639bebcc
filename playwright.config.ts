/**
 * End-to-end tests in a real Chromium (Debian's, never a downloaded one) against
 * a production build on a fresh database, seeded with the demo by `npm start`.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_PORT, ECHO_KEY, SCOUT_KEY } from "./e2e/demo";

// Decided once in the runner; workers inherit it through the environment.
process.env.MNEMO_E2E_DATABASE_URL ??= `file:${path.join(mkdtempSync(path.join(tmpdir(), "mnemo-e2e-")), "mnemo.db")}`;

export default defineConfig({
  testDir: "./e2e",
  forbidOnly: !!process.env.CI,
  retries: 0,
  // One worker everywhere: on CI's two cores the one Next server and Chromium are the limit, and a second worker made
  // the suite no faster (17.6 min against ~17 with one, on a clean clone) while each test ran slower beside it —
  // the cause of past timeouts.
  workers: 1,
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  // A test's whole walk (several browsers, sign-ins, a CLI run) took over 30 s on CI's two cores when a second
  // worker shared them; the limit is there to stop a hung test, not to time one.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    // Recording a trace (a screenshot stream and a DOM snapshot per action) cost a fifth of the suite's time on CI's two
    // cores (invites and keyboard specs: 138 s with it, 112 without), and CI keeps only the log. Locally a failure
    // keeps its trace; on CI, rerun a failing spec with `--trace on` to get one.
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    { name: "setup", testMatch: /.*\.setup\.ts/ },
    { name: "chromium", testMatch: /.*\.spec\.ts/, dependencies: ["setup"] },
  ],
  webServer: {
    command: "npx tsx lib/cli/start.ts",
    url: `http://localhost:${E2E_PORT}/signin`,
    reuseExistingServer: false,
    timeout: 300_000,
    stdout: "pipe",
    env: {
      PORT: String(E2E_PORT),
      DATABASE_URL: process.env.MNEMO_E2E_DATABASE_URL,
      MNEMO_DEMO: "1",
      MNEMO_DEMO_SCOUT_KEY: SCOUT_KEY,
      MNEMO_DEMO_ECHO_KEY: ECHO_KEY,
      NEXT_TELEMETRY_DISABLED: "1",
      // `npm test` has run tsc over the whole repository by now; the build skips Next's second pass (next.config.mjs).
      MNEMO_TYPES_CHECKED: "1",
      // The webhooks spec's receiver listens on 127.0.0.1, which is otherwise refused.
      MNEMO_WEBHOOKS_ALLOW_PRIVATE: "1",
      // The server's per-request JSON lines would bury the test report.
      LOG_LEVEL: "warn",
    },
  },
});
