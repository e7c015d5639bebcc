/**
 * Look-alikes end to end (issue #15), as Max: Scout remembers, in Max's direct message,
 * facts that read almost like one Scout kept there before; the API lists them as
 * `similar`, and the Memory page says "Looks like …" on the newer fact. Keep both
 * dismisses the hint for good; Replace the older one retires the older fact (gone
 * from the page and from recall, in the newer one's History); Forget this one is the
 * card's Forget, with Undo.
 */
import { expect, test, type APIRequestContext } from "@playwright/test";
import { SCOUT_KEY, storageStateOf } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";
const headers = { authorization: `Bearer ${SCOUT_KEY}` };

type Kept = { memory: { id: string; body: string }; similar: { id: string; body: string; score: number }[] };

/** Scout keeps a fact in Max's DM (his own fact there) and answers as the API does. */
async function rememberForMax(request: APIRequestContext, fact: string): Promise<Kept> {
  const response = await request.post("/api/v1/memories", { headers, data: { channel: "dm-max", asker: "max", fact } });
  expect(response.status()).toBe(201);
  return (await response.json()) as Kept;
}

async function recalledForMax(request: APIRequestContext): Promise<string[]> {
  const response = await request.get("/api/v1/recall?channel=dm-max&asker=max", { headers });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { facts: { body: string }[] }).facts.map((fact) => fact.body);
}

test.use({ storageState: storageStateOf("max") });

test("Looks like …: Keep both, Replace the older one and Forget this one", async ({ page, request }) => {
  // Three flows with a reload each: more than the default 30 s on a loaded machine.
  test.slow();
  const run = Date.now();
  const at = (time: string) => `The offsite shuttle leaves the north gate at ${time} on Friday (run ${run}).`;
  const first = await rememberForMax(request, at("8:00"));
  const second = await rememberForMax(request, at("8:30"));
  expect(second.similar.map((alike) => alike.id)).toEqual([first.memory.id]);

  const facts = page.getByRole("list", { name: "Just you facts" });
  // A card is named by its text (aria-labelledby); History's entries inside it are list items too, unnamed.
  const cardOf = (body: string) => facts.getByRole("listitem", { name: body });
  const notes = (body: string) => cardOf(body).getByRole("note", { name: /^Looks like/ });
  const toasts = page.getByRole("status", { name: "Notifications" });

  // Keep both: the hint goes, and stays gone.
  await page.goto(MEMORY);
  await expect(notes(at("8:30"))).toHaveCount(1);
  await expect(notes(at("8:30"))).toContainText(`Looks like ${at("8:00")}`);
  await notes(at("8:30")).getByRole("button", { name: "Keep both" }).click();
  await expect(toasts).toContainText("Kept both.");
  await expect(notes(at("8:30"))).toHaveCount(0);
  await page.reload();
  await expect(cardOf(at("8:30"))).toHaveCount(1);
  await expect(notes(at("8:30"))).toHaveCount(0);

  // A third that looks like both: Replace the older one retires the first.
  const third = await rememberForMax(request, at("9:00"));
  expect(third.similar.map((alike) => alike.id).sort()).toEqual([first.memory.id, second.memory.id].sort());
  await page.reload();
  await expect(notes(at("9:00"))).toHaveCount(2);
  const older = notes(at("9:00")).filter({ hasText: at("8:00") });
  await older.getByRole("button", { name: "Replace the older one" }).click();
  const dialog = page.getByRole("dialog", { name: "Replace the older fact?" });
  await expect(dialog).toContainText(at("8:00"));
  await dialog.getByRole("button", { name: "Replace" }).click();
  await expect(toasts).toContainText("Replaced");
  await expect(cardOf(at("8:00"))).toHaveCount(0);
  await expect(notes(at("9:00"))).toHaveCount(1);
  expect(await recalledForMax(request)).not.toContain(at("8:00"));
  await cardOf(at("9:00")).getByRole("button", { name: "History" }).click();
  await expect(cardOf(at("9:00"))).toContainText(at("8:00"));

  // Forget this one: the card's own Forget, with Undo.
  // One step since #17: an undoable Forget asks nothing.
  await notes(at("9:00")).getByRole("button", { name: "Forget this one" }).click();
  await expect(cardOf(at("9:00"))).toHaveCount(0);
  // The card hides at once; the toast comes when the server has forgotten it.
  await expect(toasts).toContainText("Forgot");
  expect(await recalledForMax(request)).not.toContain(at("9:00"));
  await toasts.getByRole("button", { name: "Undo" }).click();
  await expect(cardOf(at("9:00"))).toHaveCount(1);
  await expect(notes(at("9:00"))).toHaveCount(1);
});
