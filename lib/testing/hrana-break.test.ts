/**
 * The remote suite would notice a libSQL server that does not hold a transaction
 * across requests (issue #19): one of its files, run by vitest exactly as
 * `npm run test:remote` runs it but with MNEMO_HRANA_BREAK=drop-transactions (each
 * stand-in then rolls back a stream's open transaction at the end of every HTTP
 * request), fails — every test, on the transaction the stand-in dropped.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "mnemo-hrana-break-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Report = {
  numTotalTests: number;
  numFailedTests: number;
  testResults: { assertionResults: { failureMessages: string[] }[] }[];
};

/** Runs one remote-suite file in a vitest of its own; its exit code and JSON report. */
function runRemoteFile(file: string, env: Record<string, string>): Promise<{ code: number | null; report: Report }> {
  const out = path.join(dir, "report.json");
  // The parent vitest's own variables would make the child think it is a worker.
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "MNEMO_TEST_DATABASE")) as NodeJS.ProcessEnv;
  const child = spawn(
    process.execPath,
    [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "-c", "vitest.remote.config.ts", file, "--reporter=json", `--outputFile=${out}`],
    { cwd: ROOT, env: { ...clean, ...env, NODE_OPTIONS: "" }, stdio: "ignore" },
  );
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, report: JSON.parse(readFileSync(out, "utf8")) as Report }));
  });
}

it("a remote-suite file fails against a stand-in that drops each stream's transaction between requests", async () => {
  const { code, report } = await runRemoteFile("lib/memory/replace-purged.test.ts", { MNEMO_HRANA_BREAK: "drop-transactions" });
  expect(code).not.toBe(0);
  expect(report.numTotalTests).toBeGreaterThan(0);
  expect(report.numFailedTests).toBe(report.numTotalTests);
  const failures = report.testResults.flatMap((file) => file.assertionResults.flatMap((test) => test.failureMessages));
  // Drizzle's transaction finds none left to end: the stand-in rolled it back after its BEGIN's request.
  for (const failure of failures) expect(failure).toMatch(/no transaction is active/);
}, 120_000);
