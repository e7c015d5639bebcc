import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { YOUNG_GENERATION_MB, serverNodeOptions } from "./node-options";

describe("serverNodeOptions", () => {
  it("gives the server a larger young generation, keeping the operator's other options", () => {
    expect(serverNodeOptions(undefined)).toBe(`--max-semi-space-size=${YOUNG_GENERATION_MB}`);
    expect(serverNodeOptions("  --enable-source-maps ")).toBe(`--enable-source-maps --max-semi-space-size=${YOUNG_GENERATION_MB}`);
  });

  it("leaves an operator's own size alone", () => {
    expect(serverNodeOptions("--max-semi-space-size=8 --trace-warnings")).toBe("--max-semi-space-size=8 --trace-warnings");
    expect(serverNodeOptions("--max_semi_space_size=8")).toBe("--max_semi_space_size=8");
  });

  it("is an option Node accepts in NODE_OPTIONS, and it takes effect", () => {
    // Allocate until V8 grows the young generation as far as it may, then ask how large it is. A million objects
    // survive each scavenge for a while: with 200,000, V8 sometimes stopped at 32 MB under a busy suite (16 by default).
    const script =
      "let keep = []; for (let i = 0; i < 6e6; i++) { keep.push({ i }); if (keep.length > 1e6) keep = []; }" +
      "console.log(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)";
    const youngGeneration = (nodeOptions: string) => {
      const run = spawnSync(process.execPath, ["-e", script], { env: { ...process.env, NODE_OPTIONS: nodeOptions }, encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      return Number(run.stdout.trim());
    };
    expect(youngGeneration(serverNodeOptions(undefined))).toBeGreaterThanOrEqual(2 * youngGeneration(""));
  });
});
