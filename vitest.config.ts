import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    // bench/quality: the test that keeps the labelled recall-quality set valid.
    include: ["lib/**/*.test.ts", "db/**/*.test.ts", "app/**/*.test.ts", "bench/quality/**/*.test.ts"],
    environment: "node",
    // Per-request log lines would bury the test report; the log tests turn them back on.
    env: { LOG_LEVEL: "warn" },
    // Vitest keeps a core for itself, which on CI's two cores is one test process: two ran the unit suite in 246 s
    // instead of 328, and the remote suite in 171 s instead of 210-249 (its Hrana stand-in shares the cores).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Integration tests each open their own database file; argon2 and property runs take a moment.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A folder for the run where each test process keeps the files its test databases copy (lib/testing/temp-db.ts).
    globalSetup: ["lib/testing/temp-db-setup.ts"],
  },
});
