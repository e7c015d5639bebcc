/** @type {import('next').NextConfig} */
const nextConfig = {
  // The repository root, so Turbopack never guesses from a lockfile further up.
  turbopack: { root: import.meta.dirname },
  // Native modules stay as Node requires instead of being bundled.
  serverExternalPackages: ["@libsql/client", "libsql", "@node-rs/argon2"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
