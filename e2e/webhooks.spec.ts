/**
 * Webhooks in a real browser (#18): acme's owner adds an endpoint pointing at a
 * receiver this spec starts on 127.0.0.1, sees the signing secret once, sends a
 * test event that arrives signed (checked with the standardwebhooks verifier), and
 * finds it in the endpoint's delivery log as delivered with a 2xx; then deletes it.
 */
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { startReceiver } from "../lib/testing/webhook-receiver";
import { storageStateOf } from "./demo";
import { unique } from "./people";

test.use({ storageState: storageStateOf("olivia") });

test("olivia adds an endpoint, sees its secret once, sends a test event and finds it delivered in the log", async ({ page }) => {
  const receiver = await startReceiver();
  try {
    const url = receiver.url(`/hooks/${unique()}`);
    const host = new URL(url).host;
    await page.goto("/w/acme/settings");
    await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Webhooks" }).click();
    await expect(page.getByRole("heading", { name: /^Webhooks \(\d+\)$/ })).toBeVisible();
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secret = await page.getByLabel("Signing secret").inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);

    const endpoint = page.getByRole("listitem", { name: host });
    await expect(endpoint).toContainText(url);
    await endpoint.getByRole("button", { name: "Send a test event" }).click();
    await expect.poll(() => receiver.received.filter((r) => r.body.includes("webhook.test")).length).toBe(1);
    const arrived = receiver.received.find((r) => r.body.includes("webhook.test"))!;
    expect(() => new Webhook(secret).verify(arrived.body, arrived.headers as Record<string, string>)).not.toThrow();

    // Shown once: after a reload the secret is nowhere on the page, and the log has the delivery.
    await expect(async () => {
      await page.reload();
      const row = page.getByRole("table", { name: `Deliveries to ${host}` }).getByRole("row").filter({ hasText: "webhook.test" });
      await expect(row).toContainText("Delivered", { timeout: 1_000 });
      await expect(row).toContainText("204", { timeout: 1_000 });
    }).toPass();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("listitem", { name: host }).getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page.getByRole("listitem", { name: host })).toHaveCount(0);
  } finally {
    await receiver.close();
  }
});
