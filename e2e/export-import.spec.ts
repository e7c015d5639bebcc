/**
 * "Download as JSON" and "Import workspace facts" in a real browser. The e2e
 * database is shared with specs that add facts as they run, so files are
 * checked for the demo's facts present and absent, never for an exact count.
 */
import { readFile } from "node:fs/promises";
import http from "node:http";
import { expect, test } from "@playwright/test";
import { E2E_PORT, SCOUT_KEY, storageStateOf, DEMO_FACTS } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";

const DEMO = DEMO_FACTS;
type DemoFact = keyof typeof DEMO;

/** What ana may see of scout's demo facts (visibleTo in lib/memory/rules.ts). */
const ANA_SEES: DemoFact[] = ["releases", "sso", "refunds", "pairing", "anaPerson"];

type ExportedFile = {
  format: string;
  facts: { body: string; scope: string; created_by_kind: string; history: { kind: string; actor_name: string }[] }[];
};

test.describe("ana downloads scout's memory", () => {
  test.use({ storageState: storageStateOf("ana") });

  test("the file holds exactly the demo facts she may see, with their history", async ({ page }) => {
    await page.goto(MEMORY);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download as JSON" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^scout-memory-\d{4}-\d\d-\d\d\.json$/);
    const json = JSON.parse(await readFile(await file.path(), "utf8")) as ExportedFile;
    expect(json.format).toBe("mnemo.facts");

    const bodies = json.facts.map((fact) => fact.body);
    for (const key of Object.keys(DEMO) as DemoFact[]) {
      if (ANA_SEES.includes(key)) expect(bodies, `ana's file has ${key}`).toContain(DEMO[key]);
      else expect(bodies, `ana's file must not have ${key}`).not.toContain(DEMO[key]);
    }
    const releases = json.facts.find((fact) => fact.body === DEMO.releases);
    expect(releases?.history[0]).toMatchObject({ kind: "remember", actor_name: "Olivia Owen" });
    expect(json.facts.every((fact) => fact.history.length > 0)).toBe(true);
  });

  test("she is offered no import: that is for owners", async ({ page }) => {
    await page.goto(MEMORY);
    await expect(page.getByRole("heading", { name: "Scout's memory" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Import workspace facts" })).toHaveCount(0);
  });
});

test.describe("olivia imports workspace facts", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("a dry run counts, then the import adds the new fact, pinned and told by her", async ({ page }) => {
    const fresh = `Imported in a browser at ${Date.now()}.`;
    const file = {
      format: "mnemo.facts",
      version: 1,
      facts: [
        { scope: "workspace", body: fresh },
        { scope: "workspace", body: "releases go out on thursdays" },
        { scope: "channel", body: "Support rotates weekly." },
      ],
    };
    await page.goto(MEMORY);
    const section = page.getByRole("region", { name: "Import workspace facts" });
    await section.getByLabel("Facts file (JSON)").setInputFiles({
      name: "facts.json",
      mimeType: "application/json",
      buffer: Buffer.from(JSON.stringify(file)),
    });
    await section.getByRole("button", { name: "Check file" }).click();
    await expect(section.getByText("Would add 1 fact")).toBeVisible();
    await expect(section.getByText("Skip 1 fact already known (duplicates)")).toBeVisible();
    await expect(section.getByText("Skip 1 fact of channels or people")).toBeVisible();
    await expect(section.getByRole("status")).toHaveText("Ready to import 1 fact. Nothing has changed yet.");
    // A dry run changes nothing.
    await expect(page.getByText(fresh, { exact: true })).toHaveCount(0);

    await section.getByRole("button", { name: "Import 1 fact" }).click();
    await expect(section.getByRole("status")).toContainText("Imported 1 fact into Scout's workspace memory");
    const workspace = page.getByRole("list", { name: "Everyone in Acme facts" });
    const card = workspace.getByRole("listitem").filter({ has: page.getByText(fresh, { exact: true }) });
    await expect(card).toBeVisible();
    await expect(card.getByText("Told by Olivia Owen")).toBeVisible();
    await expect(card.getByRole("img", { name: "Pinned" })).toBeVisible();

    // Recalled anywhere in the workspace at once.
    const recall = await page.request.get("/api/v1/recall?channel=general&asker=ana", {
      headers: { authorization: `Bearer ${SCOUT_KEY}` },
    });
    const answer = (await recall.json()) as { facts: { body: string }[] };
    expect(answer.facts.map((fact) => fact.body)).toContain(fresh);
  });
});

test.describe("the import route, called by hand", () => {
  const HERE = `http://localhost:${E2E_PORT}`;
  const IMPORT = `${MEMORY}/import?intent=import`;
  const file = JSON.stringify({ format: "mnemo.facts", version: 1, facts: [{ scope: "workspace", body: "Planted by another site." }] });

  async function cookieOf(person: "olivia"): Promise<string> {
    const state = JSON.parse(await readFile(storageStateOf(person), "utf8")) as { cookies: { name: string; value: string }[] };
    return state.cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  }

  /**
   * Sends only the headers of a POST that declares `declared` bytes, and waits
   * for the answer: a server that waited for the body would never give one.
   */
  function answerBeforeBody(headers: Record<string, string>, declared: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const request = http.request(`${HERE}${IMPORT}`, {
        method: "POST",
        headers: { origin: HERE, "content-type": "application/json", "content-length": String(declared), ...headers },
      });
      const timer = setTimeout(() => reject(new Error("no answer before the body was sent")), 5_000);
      request.on("response", (response) => {
        clearTimeout(timer);
        response.resume();
        request.destroy();
        resolve(response.statusCode ?? 0);
      });
      request.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      request.flushHeaders();
    });
  }

  test("an owner's cookie on a POST from another site imports nothing", async ({ playwright }) => {
    const request = await playwright.request.newContext({ baseURL: HERE, storageState: storageStateOf("olivia") });
    const response = await request.post(IMPORT, { headers: { origin: "https://evil.example", "content-type": "application/json" }, data: file });
    expect(response.status()).toBe(403);
    const page = await request.get(MEMORY);
    expect(await page.text()).not.toContain("Planted by another site.");
    await request.dispose();
  });

  test("a body over 5 MB is refused from its declared size, before it is sent", async () => {
    expect(await answerBeforeBody({ cookie: await cookieOf("olivia") }, 6 * 1024 * 1024)).toBe(413);
  });

  test("without a session nothing is read at all, whatever size is declared", async () => {
    expect(await answerBeforeBody({}, 64 * 1024 * 1024)).toBe(401);
  });
});
