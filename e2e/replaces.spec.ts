/**
 * Replacements end to end (issue #15), as Max: Scout remembers in Max's direct message
 * a fact that replaces one it kept there (`replaces`); the old fact leaves recall and
 * the Memory page at once, the new fact's History reads "was → now" with who replaced
 * it and where, and the old id answers 404 naming its successor.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { SCOUT_KEY, storageStateOf } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";
const headers = { authorization: `Bearer ${SCOUT_KEY}` };

type Kept = { memory: { id: string; body: string }; replaced?: string };

async function rememberForMax(request: APIRequestContext, fact: string, replaces?: string): Promise<Kept> {
  const response = await request.post("/api/v1/memories", { headers, data: { channel: "dm-max", asker: "max", fact, replaces } });
  expect(response.status()).toBe(201);
  return (await response.json()) as Kept;
}

test.use({ storageState: storageStateOf("max") });

test("a replaced fact leaves recall and the page at once; History shows was → now, by whom and where", async ({ page, request }) => {
  const run = Date.now();
  const before = `Max's one-to-ones are on Tuesdays (run ${run}).`;
  const after = `Max's one-to-ones moved to Wednesdays (run ${run}).`;
  const old = await rememberForMax(request, before);
  const kept = await rememberForMax(request, after, old.memory.id);
  expect(kept.replaced).toBe(old.memory.id);

  const recall = await request.get("/api/v1/recall?channel=dm-max&asker=max", { headers });
  const bodies = ((await recall.json()) as { facts: { body: string }[] }).facts.map((fact) => fact.body);
  expect(bodies).toContain(after);
  expect(bodies).not.toContain(before);
  const gone = await request.delete(`/api/v1/memories/${old.memory.id}?channel=dm-max&asker=max`, { headers });
  expect(gone.status()).toBe(404);
  expect(((await gone.json()) as { error: { message: string } }).error.message).toContain(kept.memory.id);

  await page.goto(MEMORY);
  const facts = page.getByRole("list", { name: "Just you facts" });
  const cardOf = (body: string) => facts.getByRole("listitem").filter({ has: page.getByText(body, { exact: true }) });
  await expect(cardOf(after)).toHaveCount(1);
  await expect(cardOf(before)).toHaveCount(0);
  await cardOf(after).getByRole("button", { name: "History" }).click();
  const history = cardOf(after).getByRole("list", { name: "History" });
  const replaced = history.getByRole("listitem").filter({ hasText: "replaced an older fact" });
  await expect(replaced).toContainText("Scout replaced an older fact, @max in a direct message");
  await expect(replaced.getByRole("deletion")).toHaveText(before);
  await expect(replaced.getByRole("insertion")).toHaveText(after);
  // The old fact's own history came along: when Scout first remembered it.
  await expect(history.getByRole("listitem").first()).toContainText("Scout remembered it");
});
