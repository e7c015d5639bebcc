/** reindex: vectors for every fact, now — after configuring an embeddings provider or changing its model. */
import { countDue, drainDue, queueMissingVectors } from "@/lib/embeddings/embedder";
import { embeddingsSettings } from "@/lib/embeddings/settings";
import { CliError, type Command } from "../command";

/** How often a long reindex says how far it got. */
const PROGRESS_EVERY_MS = 5_000;

const facts = (n: number) => `${n} ${n === 1 ? "fact" : "facts"}`;

export const reindexCommand: Command = {
  name: "reindex",
  summary:
    "Embeds every live fact that has no vector of the configured model (MNEMO_EMBEDDINGS_URL and " +
    "MNEMO_EMBEDDINGS_MODEL), now. Run it after changing the model; a running server embeds new and corrected facts on its own.",
  flags: {},
  notes: ["Safe to run while Mnemo serves, and again after a failure: it picks up where it stopped."],
  async run({ io, db: open, env }) {
    const settings = embeddingsSettings(env);
    if (!settings) {
      throw new CliError(
        "No embeddings provider is set: set MNEMO_EMBEDDINGS_URL and MNEMO_EMBEDDINGS_MODEL (see DEPLOY.md) and run reindex again.",
      );
    }
    const db = await open();
    const queued = await queueMissingVectors(db, settings.model);
    const total = await countDue(db);
    io.out(`${facts(total)} to embed with ${settings.model} (${queued} newly queued).`);
    const started = Date.now();
    let said = started;
    const drained = await drainDue(db, settings, (embedded) => {
      if (Date.now() - said < PROGRESS_EVERY_MS) return;
      said = Date.now();
      io.out(`  ${embedded} of ${total}…`);
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (drained.failed) {
      throw new CliError(
        `Embedded ${drained.embedded} of ${facts(total)}, then ${drained.failed}. Run reindex again once it answers; a running server also retries on its own.`,
      );
    }
    io.out(`Embedded ${facts(drained.embedded)} with ${settings.model} in ${seconds} s.`);
  },
};
