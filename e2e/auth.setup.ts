import { expect, test as setup } from "@playwright/test";
import { DEMO_PASSWORD, PEOPLE, storageStateOf, type PersonId } from "./demo";

for (const id of Object.keys(PEOPLE) as PersonId[]) {
  setup(`${id} signs in`, async ({ page }) => {
    const person = PEOPLE[id];
    await page.goto("/signin");
    await page.getByLabel("Email").fill(person.email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
    await page.context().storageState({ path: storageStateOf(id) });
  });
}
