/**
 * Guessing a password through the real sign-in form of the production build:
 * a forged X-Forwarded-For (the server trusts no proxy here) changes nothing, and
 * guesses are counted against the connection's own address.
 */
import { randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";
import { connect } from "../db/client";

const GUESSES = 10;

test("rotating X-Forwarded-For does not escape the limit: guesses soon wait, counted by the real address", async ({ page }) => {
  // An email of its own, so no other spec's sign-ins meet this one's count.
  const email = `guessed-${randomBytes(4).toString("hex")}@acme.test`;
  const forged: string[] = [];
  let refusal: string | null = null;
  await page.goto("/signin");
  for (let i = 0; i < GUESSES && !refusal; i++) {
    forged.push(`198.51.100.${i + 1}`);
    await page.setExtraHTTPHeaders({ "x-forwarded-for": forged[i] });
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(`guess number ${i}`);
    await page.getByRole("button", { name: "Sign in" }).click();
    const alert = page.getByRole("alert", { name: "Sign-in problem" });
    await expect(alert).toHaveText(/don't match|Too many attempts/);
    const text = (await alert.textContent()) ?? "";
    if (text.startsWith("Too many attempts")) refusal = text;
    // The form keeps its last answer; clear it so the next one is read fresh.
    await page.goto("/signin");
  }
  // Five are free, then waits of 1, 2, 4, 8, 16 seconds: a guess within one is refused.
  expect(refusal, `${GUESSES} guesses, none refused`).toMatch(/^Too many attempts\. Try again in \d+ seconds?\.$/);

  const db = connect(process.env.MNEMO_E2E_DATABASE_URL!);
  try {
    const rows = await db.$client.execute({
      sql: "SELECT DISTINCT key FROM sign_in_failures WHERE key LIKE ?",
      args: [`pair:${email} %`],
    });
    const addresses = rows.rows.map((row) => String(row.key).slice(`pair:${email} `.length));
    // One pair, and its address is the connection's: never a forged one, never "unknown".
    expect(addresses).toHaveLength(1);
    expect(forged).not.toContain(addresses[0]);
    expect(addresses[0]).not.toBe("unknown");
  } finally {
    db.$client.close();
  }
});
