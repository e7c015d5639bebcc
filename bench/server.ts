/**
 * The production server under test: `npm start`'s own script (migrate, build when
 * stale, `next start`) on the bench's file, with the demo off, per-request log
 * lines silenced (LOG_LEVEL=warn, so writing JSON lines to a pipe does not
 * dominate), and the rate limit on — high enough not to refuse, but counted.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { serverNodeOptions } from "@/lib/ops/node-options";

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

export type Server = { url: string; pid: () => number; stop: () => Promise<void> };

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The next-server process: the deepest descendant of the start script. */
function serverPid(root: number): number {
  let pid = root;
  for (let kids = childrenOf(pid); kids.length; kids = childrenOf(pid)) pid = kids[0];
  return pid;
}

/** Resident memory of a process, in MB, from /proc/<pid>/status. */
export function rssMb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return match ? Math.round(Number(match[1]) / 1024) : NaN;
}

/** CPU time a process has used (user + system), in ms, from /proc/<pid>/stat. */
export function cpuMs(pid: number): number {
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / CLOCK_TICKS;
}
/** Linux's USER_HZ, the unit of /proc/<pid>/stat times, on every common architecture. */
const CLOCK_TICKS = 100;

export async function startServer(options: {
  dbUrl: string;
  port: number;
  rateLimit: number;
  cpuProf?: string;
  env?: Record<string, string>;
}): Promise<Server> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.dbUrl,
    PORT: String(options.port),
    MNEMO_DEMO: "0",
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret-0123",
    MNEMO_API_RATE_LIMIT: String(options.rateLimit),
    LOG_LEVEL: "warn",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    ...options.env,
  };
  // Profiling skips the start script (Node refuses --cpu-prof in NODE_OPTIONS): `next start` itself, on data the bench
  // migrated, with the Node options the start script gives it.
  const command = options.cpuProf
    ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProf}`, nextBin, "start", "--port", String(options.port)]
    : ["--import", "tsx", "lib/cli/start.ts"];
  if (options.cpuProf) {
    env.AUTH_TRUST_HOST = "true";
    env.NODE_OPTIONS = serverNodeOptions(env.NODE_OPTIONS);
  }
  const child: ChildProcess = spawn(process.execPath, command, {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`The server did not answer in time:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    pid: () => serverPid(child.pid!),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGINT");
      }),
  };
}
