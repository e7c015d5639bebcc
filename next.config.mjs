/** @type {import('next').NextConfig} */
const nextConfig = {
  // The repository root, so Turbopack never guesses from a lockfile further up.
  turbopack: { root: import.meta.dirname },
  // Native modules stay as Node requires instead of being bundled.
  serverExternalPackages: ["@libsql/client", "libsql", "@node-rs/argon2"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Importing a facts file goes through a server action; a full agent's file
  // (2,000 facts with history) passes Next's 1 MB default. The action itself
  // refuses files over 5 MB (MAX_IMPORT_BYTES) with a clear message.
  experimental: { serverActions: { bodySizeLimit: "6mb" } },
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
