/**
 * Recall counts from the agent API to a person's eyes: recalls over HTTP show on
 * the fact's card on the Memory page and take it out of "not recalled in 30
 * days"; and a graceful stop (SIGTERM) writes the counts still in memory, so a
 * server that never reached its next batch loses none.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { openDatabase, readAll } from "../db/client";
import { DEMO_FACTS, SCOUT_KEY, storageStateOf } from "./demo";
import { call, exited, startServer, waitUntilReady } from "./servers";

const MEMORY = "/w/acme/agents/scout/memory";
// Gus's own fact: recalled only in his DM with scout, which no other spec recalls in.
const GUS_FACT = DEMO_FACTS.gusPerson;

function factCard(page: Page, body: string) {
  return page.getByRole("listitem").filter({ has: page.getByText(body, { exact: true }) });
}

test.describe("on the Memory page", () => {
  test.use({ storageState: storageStateOf("gus") });

  test("recalls over the API show on the card, and take the fact out of 'not recalled in 30 days'", async ({ page }) => {
    await page.goto(MEMORY);
    await expect(factCard(page, GUS_FACT).getByText("Never recalled", { exact: true })).toBeVisible();

    // The filter, chosen as a person would: the never recalled fact is in it.
    await page.getByLabel("Recalled").selectOption({ label: "Not in 30 days" });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/recalled=not-in-30-days/);
    await expect(factCard(page, GUS_FACT)).toBeVisible();

    for (let i = 0; i < 3; i++) {
      const response = await page.request.get("/api/v1/recall?channel=dm-gus&asker=gus", {
        headers: { authorization: `Bearer ${SCOUT_KEY}` },
      });
      expect(response.status()).toBe(200);
      const body = (await response.json()) as { facts: { body: string }[] };
      expect(body.facts.map((fact) => fact.body)).toContain(GUS_FACT);
    }

    // Counts reach the database with the server's next batch (MNEMO_USAGE_FLUSH_MS): look again until they are there.
    await expect(async () => {
      await page.goto(MEMORY);
      await expect(factCard(page, GUS_FACT).getByText(/^Recalled 3 times · last /)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });

    await page.goto(`${MEMORY}?recalled=not-in-30-days`);
    await expect(page.getByLabel("Recalled")).toHaveValue("not-in-30-days");
    await expect(page.getByText(GUS_FACT, { exact: true })).toHaveCount(0);
  });
});

test("SIGTERM writes the recall counts still in memory before the server exits", async () => {
  test.setTimeout(180_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mnemo-usage-")), "mnemo.db");
  // No batch would come for ten minutes: only the stop can write these counts.
  const server = startServer(3196, file, { MNEMO_USAGE_FLUSH_MS: "600000", MNEMO_DRAIN_SECONDS: "0", LOG_LEVEL: "warn" });
  await waitUntilReady(server);

  const recalls = 7;
  const served = new Map<string, number>();
  for (let i = 0; i < recalls; i++) {
    const answer = await call(server.port, "GET", "/api/v1/recall?channel=dm-ana&asker=ana");
    if (!("status" in answer)) throw new Error(`recall failed: ${answer.error}`);
    expect(answer.status).toBe(200);
    for (const fact of (JSON.parse(answer.body) as { facts: { id: string }[] }).facts) {
      served.set(fact.id, (served.get(fact.id) ?? 0) + 1);
    }
  }
  expect(served.size).toBeGreaterThan(0);

  server.process.kill("SIGTERM");
  expect(await exited(server)).toBe(0);

  const db = await openDatabase(`file:${file}`);
  try {
    const rows = await readAll<{ factId: string; count: number }>(
      db,
      "SELECT facts.id AS factId, u.recalled_count AS count FROM fact_usage u JOIN facts ON facts.seq = u.fact_seq",
      [],
    );
    expect(new Map(rows.map((row) => [row.factId, Number(row.count)]))).toEqual(served);
  } finally {
    db.$client.close();
  }
});
