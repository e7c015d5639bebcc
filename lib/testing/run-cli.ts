/**
 * Runs the operator CLI in a process of its own, as `npm run mnemo -- …` does, against a chosen database.
 *
 * The process runs the CLI bundled once per test process with esbuild (the compiler
 * tsx uses), not through tsx: tsx compiled and resolved every module at each start,
 * about a second per run before the command began, and the CLI tests start dozens.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "../..");
const ENTRY = path.join(ROOT, "lib/cli/mnemo.ts");

export type CliRun = { code: number | null; stdout: string; stderr: string };

let bundle: Promise<string> | undefined;

/** lib/cli/mnemo.ts and our modules in one file; packages stay imports, found in node_modules as the source finds them. */
async function buildCli(): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    write: false,
    logLevel: "silent",
    plugins: [
      {
        name: "each-module-keeps-its-import-meta",
        setup(build) {
          // In one file every module would share the bundle's import.meta: db/migrate.ts would look for
          // drizzle/ beside it and take itself for the program. Only the entry is the program.
          build.onLoad({ filter: /\.tsx?$/ }, ({ path: file }) => {
            const source = readFileSync(file, "utf8");
            const contents =
              file === ENTRY
                ? source
                : source
                    .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(file).href))
                    .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(file)))
                    .replaceAll("import.meta.filename", JSON.stringify(file));
            return { contents, loader: file.endsWith(".tsx") ? "tsx" : "ts" };
          });
        },
      },
    ],
  });
  const code = result.outputFiles[0].contents;
  // Inside node_modules, so the bundle's package imports resolve to the project's packages.
  const dir = path.join(ROOT, "node_modules/.cache/mnemo-cli");
  const file = path.join(dir, `mnemo-${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`);
  mkdirSync(dir, { recursive: true });
  // Bundles of earlier sources go; one being written by another process (a ".<pid>" file) is left to it.
  for (const name of readdirSync(dir)) {
    if (/^mnemo-[0-9a-f]{16}\.mjs$/.test(name) && path.join(dir, name) !== file) rmSync(path.join(dir, name), { force: true });
  }
  // Written whole, then renamed into place: another test process may be starting the same bundle.
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(partial, code);
  renameSync(partial, file);
  // Its real path: the CLI runs only when it is the program, which Node names by real path (node_modules may be a link).
  return realpathSync(file);
}

/** `viaTsx`: the source through tsx, exactly as `npm run mnemo` starts it (slower): proves the bundle behaves the same. */
export async function runMnemo(args: string[], options: { url: string; stdin?: string; viaTsx?: boolean }): Promise<CliRun> {
  const program = options.viaTsx ? ["--import", "tsx", ENTRY] : [await (bundle ??= buildCli())];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...program, ...args], {
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
