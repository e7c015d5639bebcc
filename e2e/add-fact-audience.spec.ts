/**
 * The Add form sends a fact only where the person chose, and says where on its
 * button. A refusal (here, text that looks like a password) must leave every
 * choice as it was: a form that snapped back to "Just me" and the first channel
 * once let a fact meant for #support land in #general, read by everyone.
 */
import { expect, test, type Page } from "@playwright/test";
import { SCOUT_KEY, storageStateOf } from "./demo";

const MEMORY = "/w/acme/agents/scout/memory";
const SECRET = "The shared inbox password: hunter2";
const REFUSED = "That looks like a password or token";

function addForm(page: Page) {
  const form = page.getByRole("form", { name: "Remember a fact" });
  return {
    form,
    text: form.getByLabel("Fact", { exact: true }),
    channel: form.getByLabel("Channel", { exact: true }),
    scope: (name: string) => form.getByRole("radio", { name }),
    problem: form.getByRole("alert", { name: "Add fact problem" }),
  };
}

/** The bodies scout recalls in a channel for a person, over the API. */
async function recalled(page: Page, channel: string, asker: string): Promise<string[]> {
  const response = await page.request.get(`/api/v1/recall?channel=${channel}&asker=${asker}`, {
    headers: { authorization: `Bearer ${SCOUT_KEY}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { facts: { body: string }[] }).facts.map((fact) => fact.body);
}

function factIn(page: Page, group: string, body: string) {
  return page.getByRole("list", { name: `${group} facts` }).getByRole("listitem").filter({ hasText: body });
}

test.describe("ana", () => {
  test.use({ storageState: storageStateOf("ana") });

  test("a refused fact for #support keeps #support, and the fixed one lands there, not in #general", async ({ page }) => {
    const fixed = `The shared inbox is triaged by Ana (${Date.now()})`;
    const add = addForm(page);
    await page.goto(MEMORY);
    await expect(add.form.getByRole("button", { name: "Remember for just you" })).toBeDisabled();

    await add.scope("Channels").check();
    await add.channel.selectOption({ label: "#support" });
    await add.text.fill(SECRET);
    await add.form.getByRole("button", { name: "Remember for #support" }).click();
    await expect(add.problem).toContainText(REFUSED);

    // Nothing moved: the same audience, the same channel, the same text, and the button still says where.
    await expect(add.scope("Channels")).toBeChecked();
    await expect(add.scope("Just you")).not.toBeChecked();
    await expect(add.channel).toHaveValue("support");
    await expect(add.text).toHaveValue(SECRET);
    await expect(add.form.getByRole("button", { name: "Remember for #support" })).toBeEnabled();

    await add.text.fill(fixed);
    await add.form.getByRole("button", { name: "Remember for #support" }).click();
    await expect(page.getByText("Scout will remember that.")).toBeVisible();
    const card = factIn(page, "Channels", fixed);
    await expect(card.getByText("#support", { exact: true })).toBeVisible();
    await expect(card.getByText("#general", { exact: true })).toHaveCount(0);
    expect(await recalled(page, "support", "ana")).toContain(fixed);
    expect(await recalled(page, "general", "ana")).not.toContain(fixed);

    // After a success the text is cleared, and the audience is kept for the next fact.
    await expect(add.text).toHaveValue("");
    await expect(add.scope("Channels")).toBeChecked();
    await expect(add.channel).toHaveValue("support");
  });
});

test.describe("olivia", () => {
  test.use({ storageState: storageStateOf("olivia") });

  test("a refusal keeps #leadership, and then the workspace, exactly as chosen", async ({ page }) => {
    const stamp = Date.now();
    const private_ = `Leadership reviews hiring on Tuesdays (${stamp})`;
    const everyone = `The office closes at 18:00 on Fridays (${stamp})`;
    const add = addForm(page);
    await page.goto(MEMORY);

    await add.scope("Channels").check();
    await add.channel.selectOption({ label: "#leadership" });
    await add.text.fill(SECRET);
    await add.form.getByRole("button", { name: "Remember for #leadership" }).click();
    await expect(add.problem).toContainText(REFUSED);
    await expect(add.scope("Channels")).toBeChecked();
    await expect(add.channel).toHaveValue("leadership");
    await expect(add.text).toHaveValue(SECRET);

    await add.text.fill(private_);
    await add.form.getByRole("button", { name: "Remember for #leadership" }).click();
    await expect(page.getByText("Scout will remember that.")).toBeVisible();
    await expect(factIn(page, "Channels", private_).getByText("#leadership", { exact: true })).toBeVisible();
    expect(await recalled(page, "leadership", "olivia")).toContain(private_);
    // Not in #general, so not for Ana or Gus.
    expect(await recalled(page, "general", "gus")).not.toContain(private_);

    await add.scope("Everyone in Acme").check();
    await add.text.fill(SECRET);
    await add.form.getByRole("button", { name: "Remember for everyone in Acme" }).click();
    await expect(add.problem).toContainText(REFUSED);
    await expect(add.scope("Everyone in Acme")).toBeChecked();
    await expect(add.text).toHaveValue(SECRET);

    await add.text.fill(everyone);
    await add.form.getByRole("button", { name: "Remember for everyone in Acme" }).click();
    await expect(factIn(page, "Everyone in Acme", everyone)).toBeVisible();
    await expect(factIn(page, "Channels", everyone)).toHaveCount(0);
    expect(await recalled(page, "general", "gus")).toContain(everyone);
  });
});
