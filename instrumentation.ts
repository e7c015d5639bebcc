/**
 * Runs once when a server process starts. It puts the HTTP edge (lib/http/edge.ts)
 * in front of Next's server. Facts forgotten more than 7 days ago are purged with
 * their history every hour (and by `npm start`), so "Recently forgotten" really
 * ends. Purging is idempotent, so several servers may all do it.
 */
const PURGE_EVERY_MS = 60 * 60 * 1000;

export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Before any request: methods and paths that Next itself would answer with a 500.
  const { guardHttpServers } = await import("./lib/http/edge");
  guardHttpServers();
  // Before any request too: each is tagged with its connection's address, which sign-in limits count by.
  (await import("./lib/auth/peer-address")).tagPeerAddresses();
  // Recall counts tokens with o200k_base: its ranks (~300 ms) load here, before the server is ready, not on the first recall.
  (await import("./lib/memory/token-budget")).loadTokenizer();
  const { closeDb, getDb } = await import("./db");
  // The WAL's checkpoints run on a thread of their own, never inside a request thread's commit (db/checkpointer.ts).
  const { startCheckpointer } = await import("./db/checkpointer");
  const { readConfig } = await import("./lib/config");
  const checkpointer = startCheckpointer(getDb(), readConfig().DATABASE_URL);
  // Agents' questions and remembers are done on a thread of their own; started now, so the first does not wait for it to load.
  const { agentThreadFor } = await import("./lib/api/agent-thread");
  agentThreadFor(getDb())?.start();
  const { purgeExpired } = await import("./lib/memory/writes");
  const purge = () =>
    purgeExpired(getDb()).catch((error: unknown) => {
      console.error(`[purge] ${error instanceof Error ? error.message : String(error)}`);
    });
  setInterval(purge, PURGE_EVERY_MS).unref();
  // With an embeddings provider, new and corrected facts get their vectors in the background (several servers may all do it).
  const { embeddingsSettings } = await import("./lib/embeddings/settings");
  if (embeddingsSettings()) (await import("./lib/embeddings/embedder")).startEmbedder(getDb);
  // Webhook deliveries queued by the database are sent from every server; claims keep two from sending one row.
  (await import("./lib/webhooks/sender")).startWebhookSender(getDb);
  // Once the last request is answered, before Next exits: this thread's recall counts are written (by the agent
  // thread, which writes them for it), then the agent thread finishes what it holds, writes its own counts and ends,
  // then the checkpointer ends between two checks, so that the connection closed at exit is the database's last.
  const { flushUsage } = await import("./lib/memory/usage");
  const { flushBeforeServerCloses } = await import("./lib/ops/flush-before-exit");
  flushBeforeServerCloses(async () => {
    try {
      await flushUsage();
    } finally {
      await agentThreadFor(getDb())?.close();
      await checkpointer?.close();
    }
  });
  // Next exits after finishing the requests in flight (SIGTERM); close the database last, checkpointing its WAL.
  process.once("exit", () => closeDb());
  const { DRAIN_MESSAGE, startDraining } = await import("./lib/ops/draining");
  process.on("message", (message) => {
    if (message === DRAIN_MESSAGE) startDraining();
  });
}
