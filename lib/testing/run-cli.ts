/** Runs the operator CLI in a process of its own, as `npm run mnemo -- …` does, against a chosen database. */
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type CliRun = { code: number | null; stdout: string; stderr: string };

export function runMnemo(args: string[], options: { url: string; stdin?: string }): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "lib/cli/mnemo.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: options.url, NODE_OPTIONS: "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}
