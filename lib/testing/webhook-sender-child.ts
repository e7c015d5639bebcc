/**
 * A webhook sender in a process of its own, as each server runs one, for the tests
 * that kill it mid-queue or run two on one file. DATABASE_URL names the file;
 * MNEMO_TEST_SENDER holds the sender's options as JSON. It says "ready" once started.
 */
import { openDatabase } from "@/db/client";
import { DEFAULT_OPTIONS, startWebhookSender, type SenderOptions } from "@/lib/webhooks/sender";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const options: SenderOptions = { ...DEFAULT_OPTIONS, ...(JSON.parse(process.env.MNEMO_TEST_SENDER ?? "{}") as Partial<SenderOptions>) };
const db = await openDatabase(url);
const stop = startWebhookSender(() => db, options);
process.stderr.write("ready\n");
process.once("SIGTERM", () => {
  void stop().then(() => {
    db.$client.close();
    process.exit(0);
  });
});
// The loop's timers are unref'd: keep the process alive until it is told to stop.
setInterval(() => undefined, 1 << 30);
