/**
 * The libSQL stand-in (lib/testing/hrana-server.ts) as a process of its own, for the
 * bench's remote row (issue #19): apart from the app server, as sqld would be, so
 * each one's CPU is its own. `node --import tsx bench/hrana-stand-in.ts <file>`
 * prints the URL it serves on one line and serves until it is sent SIGTERM.
 */
import { BUSY_TIMEOUT_MS } from "@/db/kept-statements";
import { startHranaServer } from "@/lib/testing/hrana-server";

const file = process.argv[2];
if (!file) {
  console.error("usage: bench/hrana-stand-in.ts <database file>");
  process.exit(2);
}
// A writer waits for the lock as long as the app waits on a file (db/kept-statements.ts).
const server = await startHranaServer({ file, busyTimeoutMs: BUSY_TIMEOUT_MS });
process.stdout.write(`${server.url}\n`);
process.on("SIGTERM", () => {
  void server.close().then(() => process.exit(0));
});
