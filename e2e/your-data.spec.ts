/**
 * "Your data" in a real browser (issue #16): Ana downloads exactly her data, erases
 * what Scout keeps just for her, and signs out everywhere; Gus deletes his account.
 * These end the demo people's sessions and erase their demo facts, which every other
 * spec shares, so this spec runs its own server on a database file of its own, seeded
 * with the demo by `npm start`'s script (servers.ts), and compares with the seed.
 */
import { mkdtempSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO_FACTS, DEMO_PASSWORD, ECHO_KEY } from "./demo";
import { call, exited, startServer, waitUntilReady, type Server } from "./servers";

const PORT = 3197;
const ANA = "ana@acme.test";
const GUS = "gus@acme.test";

test.describe.configure({ mode: "serial" });
test.use({ baseURL: `http://localhost:${PORT}`, storageState: { cookies: [], origins: [] } });

let server: Server;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "mnemo-your-data-")), "mnemo.db");
  server = startServer(PORT, file, { MNEMO_DEMO: "1", LOG_LEVEL: "warn" });
  await waitUntilReady(server);
});

test.afterAll(async () => {
  server?.process.kill("SIGTERM");
  if (server) await exited(server);
});

async function signIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
  return page;
}

/** Scout's recall for Ana in her DM, over the API, as the section's text. */
async function recallInDmAna(): Promise<string> {
  const answer = await call(PORT, "GET", "/api/v1/recall?channel=dm-ana&asker=ana");
  if (!("status" in answer) || answer.status !== 200) throw new Error(`recall failed: ${JSON.stringify(answer)}`);
  return answer.body;
}

/** Echo's recall in Globex's lobby, with Echo's key: its status. */
async function echoRecallStatus(): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${PORT}/api/v1/recall?channel=lobby&asker=gina`, {
    headers: { authorization: `Bearer ${ECHO_KEY}` },
  });
  return response.status;
}

type PersonFile = {
  person: { id: string; email: string };
  kept: { body: string; scope: string }[];
  told: { body: string }[];
  from_messages: { body: string }[];
  events: unknown[];
};

let ana: Page;

test("Ana opens Your data from the header and downloads exactly her facts", async ({ browser }) => {
  ana = await signIn(browser, ANA);
  await ana.getByRole("link", { name: "Your data" }).click();
  await expect(ana.getByRole("heading", { name: "Your data", level: 1 })).toBeVisible();
  await expect(ana.getByRole("rowheader", { name: "Scout in Acme" })).toBeVisible();

  const download = ana.waitForEvent("download");
  await ana.getByRole("link", { name: "Download as JSON" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.json$/);
  const text = await readFile(await file.path(), "utf8");
  const json = JSON.parse(text) as PersonFile;

  // What the seed gives Ana: her person fact (from her DM), and the #support fact from her message.
  expect(json.person).toMatchObject({ id: "ana", email: ANA });
  expect(json.kept.map((f) => f.body)).toEqual([DEMO_FACTS.anaPerson]);
  expect(json.told).toEqual([]);
  expect(json.from_messages.map((f) => f.body).sort()).toEqual([DEMO_FACTS.anaPerson, DEMO_FACTS.refunds].sort());
  expect(json.events).toEqual([]);
  for (const [name, body] of Object.entries(DEMO_FACTS)) {
    if (body !== DEMO_FACTS.anaPerson && body !== DEMO_FACTS.refunds) expect(text, `the file must not hold ${name}`).not.toContain(body);
  }
});

test("Ana erases what Scout keeps just for her in Acme: a dry run per agent, then gone from recall", async () => {
  expect(await recallInDmAna()).toContain(DEMO_FACTS.anaPerson);
  await ana.goto("/you/data");
  await ana.getByLabel("Where").selectOption({ label: "Acme" });
  await ana.getByRole("button", { name: "Check what would be erased" }).click();
  const perAgent = ana.getByRole("list", { name: "Facts to erase, per agent" });
  await expect(perAgent.getByRole("listitem")).toHaveText(["Scout in Acme: 1 fact"]);
  expect(await recallInDmAna(), "the dry run changed nothing").toContain(DEMO_FACTS.anaPerson);

  await ana.getByRole("button", { name: "Erase 1 fact now" }).click();
  const done = ana.getByText("Erased 1 fact kept just for you in Acme. They are gone, history included.");
  await expect(done).toBeVisible();
  // Focus lands on the announced result.
  await expect(ana.locator(":focus")).toContainText("Erased 1 fact");
  expect(await recallInDmAna()).not.toContain(DEMO_FACTS.anaPerson);
  await ana.reload();
  await expect(ana.getByRole("heading", { name: "Kept just for you (0)" })).toBeVisible();
});

test("Ana signs out everywhere: another browser with her session is signed out on its next request", async ({ browser }) => {
  const copy = await browser.newContext({ storageState: { cookies: await ana.context().cookies(), origins: [] } });
  const elsewhere = await copy.newPage();
  await elsewhere.goto("/you/data");
  await expect(elsewhere.getByRole("heading", { name: "Your data", level: 1 })).toBeVisible();

  await ana.goto("/you/data");
  await ana.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(ana).toHaveURL(/\/signin(\?|$)/);

  await elsewhere.getByRole("link", { name: "Your data" }).click();
  await expect(elsewhere).toHaveURL(/\/signin(\?|$)/);
  const download = await elsewhere.request.get("/you/data/download", { maxRedirects: 0 });
  expect(download.status()).toBe(303);
  await copy.close();
  await ana.context().close();
});

test("Olivia, Acme's only owner, is told the way forward and offered no Delete", async ({ browser }) => {
  const olivia = await signIn(browser, "olivia@acme.test");
  await olivia.goto("/you/data");
  await olivia.getByRole("button", { name: "See what deleting my account does" }).click();
  const form = olivia.getByRole("form", { name: "Delete my account" });
  await expect(form.getByRole("alert")).toContainText("You are the last owner of Acme, where others remain.");
  await expect(olivia.getByRole("link", { name: "People in Acme" })).toHaveAttribute("href", "/w/acme/settings");
  await expect(olivia.getByRole("button", { name: "Delete my account" })).toHaveCount(0);
  await olivia.context().close();
});

test("Gina, alone in Globex, must type its name: a wrong name keeps what she typed, with the error on the field", async ({ browser }) => {
  expect(await echoRecallStatus()).toBe(200);
  const gina = await signIn(browser, "gina@globex.test");
  await gina.goto("/you/data");
  await gina.getByRole("button", { name: "See what deleting my account does" }).click();
  await expect(gina.getByRole("list", { name: "What deleting your account does" })).toContainText("deletes Globex");
  const name = gina.getByLabel("Type Globex to delete it with your account");
  await name.fill("Globe");
  await gina.getByRole("button", { name: "Delete my account" }).click();
  await expect(name).toHaveAccessibleDescription("That is not Globex. Type its name exactly.");
  await expect(name).toHaveValue("Globe");
  await expect(name).toBeFocused();
  await name.fill("Globex");
  await gina.getByRole("button", { name: "Delete my account" }).click();
  await expect(gina).toHaveURL(/\/signin(\?|$)/);
  expect(await echoRecallStatus(), "Globex and its agent's keys went with her").toBe(401);
});

test("Gus deletes his account: he can no longer sign in, and his words in #general read 'a former member'", async ({ browser }) => {
  const shared = "The mobile app ships on Fridays.";
  const kept = await call(PORT, "POST", "/api/v1/memories", { channel: "general", asker: "gus", fact: shared, scope: "channel" });
  expect("status" in kept && kept.status).toBe(201);

  const gus = await signIn(browser, GUS);
  await gus.goto("/you/data");
  await gus.getByRole("button", { name: "See what deleting my account does" }).click();
  const plan = gus.getByRole("list", { name: "What deleting your account does" });
  await expect(plan).toContainText("erases the 1 fact agents keep just for you");
  await expect(plan).toContainText("a former member");
  await gus.getByRole("button", { name: "Delete my account" }).click();
  await expect(gus).toHaveURL(/\/signin(\?|$)/);

  await gus.goto("/signin");
  await gus.getByLabel("Email").fill(GUS);
  await gus.getByLabel("Password").fill(DEMO_PASSWORD);
  await gus.getByRole("button", { name: "Sign in" }).click();
  await expect(gus.getByRole("alert", { name: "Sign-in problem" })).toContainText("don't match an account");
  await expect(gus).toHaveURL(/\/signin(\?|$)/);

  const olivia = await signIn(browser, "olivia@acme.test");
  await olivia.goto("/w/acme/agents/scout/memory");
  const card = olivia.getByRole("listitem", { name: shared, exact: true });
  // The card names its channel once ("#general · Scout from a former member").
  await expect(card).toContainText("#general");
  await expect(card).toContainText("from a former member");
  await expect(olivia.getByText("@gus")).toHaveCount(0);
  await expect(olivia.getByText(DEMO_FACTS.gusPerson)).toHaveCount(0);
});
