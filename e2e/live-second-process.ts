/**
 * A second process writing to the e2e server's database file, for live.spec.ts:
 * Max corrects one fact through the app's own write (correctFact), as the CLI or
 * another server instance on the same file would. Usage, with DATABASE_URL set:
 *   node --import tsx e2e/live-second-process.ts <factId> <new text>
 */
import { openDatabase } from "../db/client";
import { correctFact } from "../lib/memory/writes";

const [factId, text] = process.argv.slice(2);
const MAX = { workspaceId: "acme", id: "max", name: "Max Mills", handle: "max" };

async function main() {
  const db = await openDatabase(process.env.DATABASE_URL!);
  const [row] = (await db.$client.execute({ sql: "SELECT version FROM facts WHERE id = ?", args: [factId] })).rows;
  const result = await correctFact(db, MAX, "scout", factId, Number(row?.version), text);
  db.$client.close();
  if (result.status !== "corrected") throw new Error(`not corrected: ${result.status}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
