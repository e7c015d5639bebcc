/**
 * Which embeddings provider Mnemo asks, if any: MNEMO_EMBEDDINGS_* read once per
 * distinct environment (recall asks on every question, the values rarely change).
 * Kept apart from the provider so the CLI, the server and tests all read it one way.
 */
import { readConfig, type Env } from "@/lib/config";

export type EmbeddingsSettings = {
  /** The full address POSTed to: the configured base URL with /embeddings, or the URL itself when it already ends so. */
  endpoint: string;
  model: string;
  key: string | null;
  /** How long a question's embedding may take before recall ranks by words alone. */
  timeoutMs: number;
};

/** The endpoint for a configured URL: `…/v1` and `…/v1/` become `…/v1/embeddings`; `…/embeddings` stays. */
export function embeddingsEndpoint(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, "");
  if (!path.endsWith("/embeddings")) parsed.pathname = `${path}/embeddings`;
  return parsed.toString();
}

let remembered: { signature: string; settings: EmbeddingsSettings | null } | undefined;

/** The provider's settings, or null when none is configured. Throws a ConfigError when they are wrong. */
export function embeddingsSettings(env: Env = process.env): EmbeddingsSettings | null {
  const signature = [env.MNEMO_EMBEDDINGS_URL, env.MNEMO_EMBEDDINGS_MODEL, env.MNEMO_EMBEDDINGS_KEY, env.MNEMO_EMBEDDINGS_TIMEOUT_MS].join("\n");
  if (remembered?.signature === signature) return remembered.settings;
  const config = readConfig(env);
  const settings =
    config.MNEMO_EMBEDDINGS_URL && config.MNEMO_EMBEDDINGS_MODEL
      ? {
          endpoint: embeddingsEndpoint(config.MNEMO_EMBEDDINGS_URL),
          model: config.MNEMO_EMBEDDINGS_MODEL,
          key: config.MNEMO_EMBEDDINGS_KEY ?? null,
          timeoutMs: config.MNEMO_EMBEDDINGS_TIMEOUT_MS,
        }
      : null;
  remembered = { signature, settings };
  return settings;
}
