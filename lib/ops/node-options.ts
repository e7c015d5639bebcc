/**
 * The Node options `npm start` gives the server it starts. One: a young generation
 * of 64 MB (V8's semi-space; Node's default is 16). A request allocates what it
 * answers with — rows, receipts, a 25 KB body — and what the recall caches keep is
 * copied out of the young generation when it is collected; with 16 MB that
 * happened every 40–50 ms of a question load, 3–8 ms each, and those pauses were
 * the slowest questions' wait (in process at 10 thousand facts, p99 3.5–7.4 ms →
 * about 1 ms; BENCHMARKS.md). The cost is memory: up to about 100 MB more resident.
 * An operator's own choice in NODE_OPTIONS wins.
 *
 * The flag is the process's: the agent thread (lib/api/agent-thread.ts) gets the same
 * young generation, and a Worker's `resourceLimits` cannot make it smaller while the
 * flag is set. Measured with the flag lifted for the thread (BENCHMARKS.md, the
 * eleventh session), 6 or 12 MB there made pauses shorter but so many more that
 * questions lost 17–27 % of their throughput, with no better p99.
 */
export const YOUNG_GENERATION_MB = 64;

/** NODE_OPTIONS for the server: the operator's, with the young generation's size unless they set one. */
export function serverNodeOptions(operators: string | undefined): string {
  const own = operators?.trim() ?? "";
  // V8 reads its flags' dashes and underscores alike.
  if (/--max[-_]semi[-_]space[-_]size\b/.test(own)) return own;
  return [own, `--max-semi-space-size=${YOUNG_GENERATION_MB}`].filter(Boolean).join(" ");
}
