import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center gap-4 px-6">
      <p className="text-sm font-medium text-brand-600">404</p>
      <h1 className="text-2xl font-semibold">Nothing here</h1>
      <p className="text-slate-600">
        This page doesn&apos;t exist, or it belongs to a workspace you are not in.
      </p>
      <Link href="/" className="text-brand-700 underline underline-offset-4">
        Go to your workspaces
      </Link>
    </main>
  );
}
