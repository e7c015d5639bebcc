/**
 * `npx tsx bench/plan.ts [facts-file]`: the query plans of every statement recall
 * runs in a solo DM (three branches) — without a question (the newest 40), with one
 * (the place's statistics and its postings of the question's terms, a typo's
 * vocabulary, then the pinned facts, the best matches by seq and the newest others;
 * a place asked again and again, whose branches are read whole),
 * the count of what was considered, and meaning's nearest-vectors query — for
 * BENCHMARKS.md.
 *
 * The statements are not copied here: the app's own functions run against a copy of
 * the file while its reads are recorded, and each recorded statement is explained with
 * the arguments it ran with. Exits non-zero if any of them scans facts, fact_vectors,
 * fact_terms or recall_branches, searches facts by an index not led by agent_id (other
 * agents' facts too) other than by the seq or id of a fact the place's own postings or
 * vectors named, or searches postings other than by branch.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import Database from "libsql";
import { openDatabase } from "@/db/client";
import { watchReads } from "@/db/reader";
import { migrateDatabase } from "@/db/migrate";
import { nearestByMeaning } from "@/lib/embeddings/meaning";
import { derivePlace } from "@/lib/memory/place";
import { recallRanked } from "@/lib/memory/ranked-recall";
import { recall, recallableCount, recallBranches } from "@/lib/memory/store";
import { startEmbeddingsServer } from "@/lib/testing/embeddings-server";
import type { BenchData } from "./generate";


/** The biggest generated file in bench/tmp, unless one is named. */
function dataFile(): string {
  if (process.argv[2]) return process.argv[2];
  const files = readdirSync("bench/tmp").filter((f) => /^facts-\d+-v\d+\.db$/.test(f) && existsSync(`bench/tmp/${f}.json`));
  const size = (f: string) => Number(f.split("-")[1]);
  const biggest = files.sort((a, b) => size(b) - size(a) || b.localeCompare(a))[0];
  if (!biggest) throw new Error("No generated data in bench/tmp: run `npm run bench` first, or name a file.");
  return path.join("bench/tmp", biggest);
}

async function main() {
  const source = dataFile();
  const data = JSON.parse(readFileSync(`${source}.json`, "utf8")) as BenchData;
  // A copy: opening switches the file to WAL and may write, and the template is reused by runs.
  const file = path.resolve("bench/tmp/plan.db");
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  copyFileSync(source, file);

  const db = await openDatabase(`file:${file}`);
  await migrateDatabase(db); // as the server does on start, should the file predate a migration
  // Record what readAll and readOne run, with the label of the step that ran it.
  const recorded: { label: string; text: string; args: readonly unknown[] }[] = [];
  let label = "";
  watchReads(db, (text, args) => recorded.push({ label, text, args }));

  const { agent, places } = data.recallers[0];
  const dm = places.find((p) => p.kind === "solo-dm")!;
  const { place } = await derivePlace(db, agent.workspaceId, dm.channel, dm.asker);
  const embeddings = await startEmbeddingsServer();
  process.env.MNEMO_EMBEDDINGS_URL = embeddings.url;
  process.env.MNEMO_EMBEDDINGS_MODEL = "bench-plan";
  try {
    const start = recorded.length;
    label = "recall without q: the newest 40 of each branch (store.ts recall)";
    await recall(db, agent.id, place);
    label = "recall with q (ranked-recall.ts, recall-candidates.ts)";
    const answer = await recallRanked(db, agent.id, place, { question: "when do deploys go out to customers" });
    label = "recall with q, a word nobody knows: the branches' vocabulary (recall-candidates.ts)";
    await recallRanked(db, agent.id, place, { question: "deplyos" });
    // Asked again and again under one memory version, a branch's seeks come to cost what one walk of it does.
    label = "recall with q, a place asked again and again: seeks in the branches still sought, then each branch read whole, once (recall-candidates.ts)";
    for (let i = 0; i < 200; i++) await recallRanked(db, agent.id, place, { question: `deploys to customers ${i}`, version: "plan" });
    label = "considered: the facts allowed here, counted (store.ts recallableCount)";
    await recallableCount(db, agent.id, place);
    label = "meaning: the nearest vectors among the place's branches (embeddings/meaning.ts)";
    const meaning = await nearestByMeaning(db, agent.id, agent.workspaceId, recallBranches(place), "when do deploys go out");
    if (meaning.status !== "ok") throw new Error(`meaning did not run its query: ${JSON.stringify(meaning)}`);
    recorded.splice(0, start);
    console.log(`${source}: ${data.facts.toLocaleString("en-US")} facts; agent ${agent.id} in a solo DM (${recallBranches(place).length} branches, ${answer.considered} facts allowed)\n`);
  } finally {
    await embeddings.close();
  }

  const explain = new Database(file, { readonly: true });
  const wide: string[] = [];
  const seen = new Set<string>();
  for (const { label: what, text, args } of recorded) {
    if (seen.has(text)) continue; // one plan per statement: each branch runs the same one
    seen.add(text);
    const rows = explain.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...(args as never[])) as { id: number; parent: number; detail: string }[];
    console.log(`${what}:\n\n\`\`\``);
    const depth = new Map<number, number>([[0, -1]]);
    for (const row of rows) {
      depth.set(row.id, (depth.get(row.parent) ?? 0) + 1);
      console.log(`${"  ".repeat(depth.get(row.id)!)}${row.detail}`);
      // A scan reads the whole corpus; a search of facts not led by agent_id reads other agents' facts too, unless
      // it is the lookup of one fact by the seq or id the place's own postings or vectors named.
      const lookup = /^SEARCH facts USING (INTEGER PRIMARY KEY \(rowid=\?\)|INDEX sqlite_autoindex_facts_1 \(id=\?\))$/.test(row.detail);
      if (
        /^SCAN (facts|fact_vectors|fact_terms|recall_branches)\b/.test(row.detail) ||
        (/^SEARCH facts\b/.test(row.detail) && !row.detail.includes("agent_id=?") && !lookup) ||
        (/^SEARCH fact_terms\b/.test(row.detail) && !row.detail.includes("(branch=?")) ||
        (/^SEARCH recall_branches\b/.test(row.detail) && !row.detail.includes("(agent_id=?"))
      ) {
        wide.push(`${what}: ${row.detail}`);
      }
    }
    console.log("```\n");
  }
  explain.close();
  db.$client.close();
  for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  if (wide.length) console.log(`Wider than the agent's own facts:\n${wide.map((w) => `- ${w}`).join("\n")}`);
  else console.log("No scan: every statement reads index ranges of this agent's facts, led by agent_id.");
  process.exitCode = wide.length ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
