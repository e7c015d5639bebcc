/** The goals BENCHMARKS.md lists, checked on one run's numbers, and the run as Markdown tables. */
import type { LoadResult } from "./load";
import { median } from "./median";
import type { SizeResult } from "./run";

export type Goal = { goal: string; value: string; met: boolean };

const at16 = (s: SizeResult) => s.load.find((l) => l.concurrency === 16)!;
// One decimal: a whole percent hid which side of a goal a value fell (59.97 % read "60 %", missed).
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const times = (x: number) => `${x.toFixed(2)}×`;
/**
 * A p99 goal's ratio: of all the two loads' requests (what the goal is judged by), and beside it as it was judged
 * until the thirtieth session, the ratio of the medians of their slices' p99s (`combine`), so runs before and after compare.
 */
function p99Ratio(a: LoadResult, b: LoadResult): string {
  const pooled = times(a.p99 / b.p99);
  if (!a.sliceP99s || !b.sliceP99s) return pooled;
  return `${pooled} (slices' medians ${times(median(a.sliceP99s) / median(b.sliceP99s))})`;
}

export function goals(sizes: SizeResult[]): Goal[] {
  const small = sizes[0];
  const large = sizes[sizes.length - 1];
  const out: Goal[] = [];
  for (const s of sizes) {
    const { health, recall } = at16(s);
    const label = s.facts.toLocaleString("en-US");
    out.push({ goal: `recall ≥ 75 % of the floor's req/s at c16 (${label})`, value: pct(recall.rps / health.rps), met: recall.rps >= 0.75 * health.rps });
    out.push({ goal: `recall p99 < 1.5× the floor's p99 at c16 (${label})`, value: p99Ratio(recall, health), met: recall.p99 < 1.5 * health.p99 });
    out.push({ goal: `recall in-process ≤ 1.5× the bare statement (${label})`, value: times(s.inProcess.ratio), met: s.inProcess.ratio <= 1.5 });
    out.push({ goal: `Memory page at 2,000 facts ≤ 1.5× at 20 (${label})`, value: times(s.page.ratio), met: s.page.ratio <= 1.5 });
    out.push({ goal: `remember ≥ 50 % of recall's req/s at c16 (${label})`, value: pct(s.remember.rps / recall.rps), met: s.remember.rps >= 0.5 * recall.rps });
    const withQ = at16(s).recallQ;
    if (withQ) {
      out.push({ goal: `recall with q ≥ 60 % of the floor's req/s at c16 (${label})`, value: pct(withQ.rps / health.rps), met: withQ.rps >= 0.6 * health.rps });
      out.push({ goal: `recall with q p99 < 2× the floor's p99 at c16 (${label})`, value: p99Ratio(withQ, health), met: withQ.p99 < 2 * health.p99 });
      out.push({ goal: `remember ≥ 50 % of recall with q's req/s at c16 (${label})`, value: pct(s.remember.rps / withQ.rps), met: s.remember.rps >= 0.5 * withQ.rps });
    }
    if (s.streams) {
      const { ratio, ratios, cpuRatio, streams } = s.streams;
      const spread = ratios ? ` (median; ${pct(Math.min(...ratios))}–${pct(Math.max(...ratios))}; by CPU per request ${pct(cpuRatio)})` : "";
      out.push({ goal: `recall with ${streams} open live streams ≥ 90 % of without, c16 (${label})`, value: `${pct(ratio)}${spread}`, met: ratio >= 0.9 });
    }
    const loads = [...s.load.flatMap((l) => [l.health, l.recall, ...(l.recallQ ? [l.recallQ] : [])]), s.remember, ...(s.recallNothingKept ? [s.recallNothingKept.health, s.recallNothingKept.recall] : []), ...(s.streams ? [s.streams.without, s.streams.with] : [])];
    const errors = loads.reduce((n, r) => n + r.errors + r.non2xx, 0);
    out.push({ goal: `zero errors under load (${label})`, value: String(errors), met: errors === 0 });
    if (s.remote) {
      const remoteLoads = [...s.remote.load.flatMap((l) => [l.health, l.recall, ...(l.recallQ ? [l.recallQ] : [])]), s.remote.remember];
      const remoteErrors = remoteLoads.reduce((n, r) => n + r.errors + r.non2xx, 0);
      out.push({ goal: `zero errors under load through the libSQL stand-in (${label})`, value: String(remoteErrors), met: remoteErrors === 0 });
    }
    out.push({ goal: `RSS after ≤ 1.5× after warm-up (${label})`, value: `${s.rss.afterWarmUpMb} → ${s.rss.afterMb} MB`, met: s.rss.afterMb <= 1.5 * s.rss.afterWarmUpMb });
  }
  if (sizes.length > 1) {
    const ratio = at16(large).recall.p99 / at16(small).recall.p99;
    out.push({ goal: `recall p99 at ${large.facts.toLocaleString("en-US")} ≤ 1.3× at ${small.facts.toLocaleString("en-US")} (c16)`, value: p99Ratio(at16(large).recall, at16(small).recall), met: ratio <= 1.3 });
    const [smallQ, largeQ] = [at16(small).recallQ, at16(large).recallQ];
    if (smallQ && largeQ) {
      const ratioQ = largeQ.p99 / smallQ.p99;
      out.push({ goal: `recall with q p99 at ${large.facts.toLocaleString("en-US")} ≤ 1.3× at ${small.facts.toLocaleString("en-US")} (c16)`, value: p99Ratio(largeQ, smallQ), met: ratioQ <= 1.3 });
    }
  }
  return out;
}

type Run = { date: string; mode: string; secondsPerLoad: number; machine: Record<string, unknown>; sizes: SizeResult[]; goals: Goal[] };

/** Prints the run as Markdown, ready to paste into BENCHMARKS.md. */
export function printRun(run: Run): void {
  const lines: string[] = [];
  lines.push(`\n### ${run.date.slice(0, 16).replace("T", " ")} UTC — ${run.mode}, ${run.secondsPerLoad} s per load`, "");
  lines.push("| facts | load | c | req/s | p50 ms | p99 ms | errors + non-2xx | server CPU µs/req |", "|---:|---|---:|---:|---:|---:|---:|---:|");
  for (const s of run.sizes) {
    const f = s.facts.toLocaleString("en-US");
    for (const l of s.load) {
      for (const [name, r] of [["health (floor)", l.health], ["recall", l.recall], ...(l.recallQ ? [["recall with q", l.recallQ] as const] : [])] as const) {
        lines.push(`| ${f} | ${name} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} | ${r.cpuUsPerRequest} |`);
      }
    }
    const k = s.recallNothingKept;
    if (k) {
      for (const [name, r] of [["health (floor)", k.health], ["recall, nothing kept", k.recall]] as const) {
        lines.push(`| ${f} | ${name} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} | ${r.cpuUsPerRequest} |`);
      }
    }
    const st = s.streams;
    if (st) {
      for (const [name, r] of [["recall, no live streams", st.without], [`recall, ${st.streams} live streams open`, st.with]] as const) {
        lines.push(`| ${f} | ${name} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} | ${r.cpuUsPerRequest} |`);
      }
    }
    const m = s.remember;
    lines.push(`| ${f} | remember | ${m.connections} | ${m.rps} | ${m.p50} | ${m.p99} | ${m.errors + m.non2xx} | ${m.cpuUsPerRequest} |`);
  }
  if (run.sizes.some((s) => s.remote)) {
    // The remote row beside the embedded one: same data, same loads, the database one Hrana round trip away per query.
    lines.push("", "| facts | load | c | database | req/s | p50 ms | p99 ms | errors + non-2xx | server CPU µs/req | stand-in CPU µs/req |", "|---:|---|---:|---|---:|---:|---:|---:|---:|---:|");
    for (const s of run.sizes) {
      if (!s.remote) continue;
      const f = s.facts.toLocaleString("en-US");
      const row = (name: string, where: string, r: { connections: number; rps: number; p50: number; p99: number; errors: number; non2xx: number; cpuUsPerRequest: number }, standIn: string) =>
        lines.push(`| ${f} | ${name} | ${r.connections} | ${where} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors + r.non2xx} | ${r.cpuUsPerRequest} | ${standIn} |`);
      for (const l of s.remote.load) {
        const embedded = s.load.find((e) => e.concurrency === l.concurrency);
        for (const [name, remote, file] of [["health (floor)", l.health, embedded?.health], ["recall", l.recall, embedded?.recall], ["recall with q", l.recallQ, embedded?.recallQ]] as const) {
          if (!remote) continue;
          if (file) row(name, "file", file, "–");
          row(name, "stand-in", remote, String(remote.standInCpuUsPerRequest ?? "–"));
        }
      }
      row("remember", "file", s.remember, "–");
      row("remember", "stand-in", s.remote.remember, String(s.remote.remember.standInCpuUsPerRequest ?? "–"));
    }
  }
  lines.push("", "| facts | in-process recall µs | bare statement µs | Memory page 2,000 / 20 ms | RSS warm → after MB | RSS after each phase, MB |", "|---:|---:|---:|---:|---:|---|");
  for (const s of run.sizes) {
    lines.push(
      `| ${s.facts.toLocaleString("en-US")} | ${s.inProcess.appUs} | ${s.inProcess.bareUs} | ${s.page.fullMs} / ${s.page.smallMs} | ${s.rss.afterWarmUpMb} → ${s.rss.afterMb} | ${(s.rss.timeline ?? []).map((t) => `${t.after} ${t.mb}`).join(", ")} |`,
    );
  }
  lines.push("", "| facts | answers to q checked | ranked by the question | with a matching fact | mean considered | requests that repeated one |", "|---:|---:|---:|---:|---:|---:|");
  for (const s of run.sizes) {
    const q = s.questions;
    if (q) lines.push(`| ${s.facts.toLocaleString("en-US")} | ${q.check.asked} | ${q.check.rankedByQuestion} | ${q.check.withAMatch} | ${q.check.meanConsidered} | ${(q.repeatShare * 100).toFixed(1)} % |`);
  }
  for (const s of run.sizes) {
    const st = s.streams;
    if (st?.ratios) {
      lines.push(
        "",
        `Live streams (${s.facts.toLocaleString("en-US")}): recall with ${st.streams} streams open / without, per round: req/s ${st.ratios.map((r) => r.toFixed(2)).join(", ")} (median ${st.ratio.toFixed(2)}); ` +
          `by server CPU per request ${st.cpuRatios.map((r) => r.toFixed(2)).join(", ")} (median ${st.cpuRatio.toFixed(2)}). ` +
          `${st.changes} changes made; each stream heard at least ${st.events.min} "changed" event${st.events.min === 1 ? "" : "s"} per slice (${st.events.mean} on average).`,
      );
    }
  }
  lines.push("", "| goal | value | |", "|---|---:|---|");
  for (const g of run.goals) lines.push(`| ${g.goal} | ${g.value} | ${g.met ? "met" : "**missed**"} |`);
  console.log(lines.join("\n"));
}
