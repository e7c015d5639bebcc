/**
 * `npx tsx bench/quality/look-alikes.ts`: how often look-alike detection (lib/memory/look-alikes.ts)
 * would fire on the quality set's facts, and what it costs. Each fact is compared, as
 * remember would compare a new one, against the other facts of its own scope (agent +
 * scope + scope_ref); prints the facts with at least one look-alike, a sample of pairs
 * with scores, and the time to compare one body against 2,000 others (an agent's most).
 * BENCHMARKS.md ("Look-alikes: how often they fire") keeps the numbers.
 */
import { performance } from "node:perf_hooks";
import { factBody } from "../fact-words";
import { LOOK_ALIKE_THRESHOLD, LookAlikeIndex, similarFacts } from "@/lib/memory/look-alikes";
import { loadSet, type SetFact } from "./set";

const SAMPLE = 10;
/** Pairs this close below the threshold are listed too: they show the margin. */
const NEAR = 0.45;
const MAX_PER_AGENT = 2_000;

function firing() {
  const set = loadSet();
  const groups = new Map<string, SetFact[]>();
  for (const f of set.facts) {
    const key = `${f.agent}\u0000${f.scope}\u0000${f.ref ?? ""}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const pairs = new Map<string, { a: SetFact; b: SetFact; score: number }>();
  let withAny = 0;
  for (const group of groups.values()) {
    for (const fact of group) {
      const found = similarFacts(
        fact.body,
        group.filter((other) => other.id !== fact.id),
        { threshold: NEAR },
      );
      if (found.some((hit) => hit.score >= LOOK_ALIKE_THRESHOLD)) withAny += 1;
      for (const hit of found) {
        const other = group.find((g) => g.id === hit.id) as SetFact;
        // A pair is counted once, whichever of the two asked.
        const key = [fact.id, other.id].sort().join(" ");
        if (!pairs.has(key)) pairs.set(key, { a: fact, b: other, score: hit.score });
      }
    }
  }
  const sorted = [...pairs.values()].sort((x, y) => y.score - x.score);
  const all = sorted.filter((p) => p.score >= LOOK_ALIKE_THRESHOLD);
  const near = sorted.filter((p) => p.score < LOOK_ALIKE_THRESHOLD);
  // An even spread over the found pairs, best to worst, so the sample shows the margin too.
  const step = Math.max(1, all.length / SAMPLE);
  const sample = Array.from({ length: Math.min(SAMPLE, all.length) }, (_, i) => all[Math.floor(i * step)]);
  console.log(`## Look-alikes on the quality set (threshold ${LOOK_ALIKE_THRESHOLD})\n`);
  console.log(`- facts: ${set.facts.length} in ${groups.size} scopes (agent + scope + scope_ref)`);
  console.log(`- facts with at least one look-alike: ${withAny} (${((100 * withAny) / set.facts.length).toFixed(1)} %)`);
  console.log(`- distinct pairs found: ${all.length}\n`);
  console.log("| score | fact | looks like |\n| ---: | --- | --- |");
  for (const { a, b, score } of sample) console.log(`| ${score.toFixed(3)} | ${a.body} | ${b.body} |`);
  console.log(`\nClosest below the threshold (${NEAR}–${LOOK_ALIKE_THRESHOLD}): ${near.length} pairs; the first ${Math.min(SAMPLE, near.length)}:\n`);
  console.log("| score | fact | does not fire on |\n| ---: | --- | --- |");
  for (const { a, b, score } of near.slice(0, SAMPLE)) console.log(`| ${score.toFixed(3)} | ${a.body} | ${b.body} |`);
}

function microseconds(run: () => void, times: number): number {
  run(); // warm: stems and regexes compiled, code optimised
  const start = performance.now();
  for (let i = 0; i < times; i++) run();
  return ((performance.now() - start) * 1000) / times;
}

function speed() {
  const others = Array.from({ length: MAX_PER_AGENT }, (_, i) => ({ id: `f${i}`, body: factBody(i) }));
  const queries = [...loadSet().facts.slice(0, 40).map((f) => f.body), ...Array.from({ length: 40 }, (_, i) => factBody(10_000 + i))];
  let q = 0;
  const next = () => queries[q++ % queries.length];
  const index = new LookAlikeIndex(others);
  // Texts it has not seen, made before the clock starts: look-alikes.ts keeps each text's features, so a second
  // build of the same texts reads them back. One set for the warm-up run and one for each timed run.
  const unseen = Array.from({ length: 21 }, (_, round) => others.map(({ id }, i) => ({ id, body: factBody(100_000 + MAX_PER_AGENT * round + i) })));
  let round = 0;
  const firstBuild = microseconds(() => new LookAlikeIndex(unseen[round++]), 20);
  const build = microseconds(() => new LookAlikeIndex(others), 20);
  const query = microseconds(() => index.similarTo(next()), 400);
  const whole = microseconds(() => similarFacts(next(), others), 20);
  console.log(`\n## Speed, one body against ${MAX_PER_AGENT} others (bench/fact-words.ts facts; half the bodies from the set, half generated)\n`);
  console.log("| step | µs |\n| --- | ---: |");
  console.log(`| build a LookAlikeIndex of ${MAX_PER_AGENT} texts it has not seen | ${firstBuild.toFixed(0)} |`);
  console.log(`| build it again of the same texts (their features kept) | ${build.toFixed(0)} |`);
  console.log(`| compare one body with a built index | ${query.toFixed(0)} |`);
  console.log(`| similarFacts (build + compare) | ${whole.toFixed(0)} |`);
  console.log(`\nPer fact: ${(firstBuild / MAX_PER_AGENT).toFixed(1)} µs to read a new text into the index (${(build / MAX_PER_AGENT).toFixed(2)} µs a text seen before), ${(query / MAX_PER_AGENT).toFixed(2)} µs to compare with it.`);
}

firing();
speed();
