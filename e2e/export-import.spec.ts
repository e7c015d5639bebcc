/**
 * "Download as JSON" and "Import workspace facts" in a real browser. The e2e
 * database is shared with specs that add facts as they run, so files are
 * checked for the demo's facts present and absent, never for an exact count.
 */
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { SCOUT_KEY, storageStateOf, DEMO_FACTS } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";

const DEMO = DEMO_FACTS;
type DemoFact = keyof typeof DEMO;

/** What ana may see of scout's demo facts (SPEC §2 visibleTo). */
const ANA_SEES: DemoFact[] = ["releases", "sso", "refunds", "pairing", "anaPrefers"];

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
    const workspace = page.getByRole("list", { name: "Workspace facts" });
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
