import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { THEME_SCRIPT } from "@/components/ui/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Mnemo", template: "%s · Mnemo" },
  description: "The memory of your team's AI agents, and the place where people look after it.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // The CSP allows inline scripts only with the request's nonce (proxy.ts).
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // data-theme is set by the script before paint, so the server's <html> differs from the browser's on purpose.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-dvh">{children}</body>
    </html>
  );
}
