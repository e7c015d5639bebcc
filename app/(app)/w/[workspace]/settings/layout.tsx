import Link from "next/link";
import { SettingsNav } from "@/components/settings/settings-nav";
import { ToastProvider } from "@/components/ui/toast";
import { requireOwner } from "@/lib/auth/session";

/**
 * Owner settings. The layout answers 404 to anyone but an owner, and each page
 * checks again: a layout is not re-run on every navigation, so it can't be the
 * only gate.
 */
export default async function SettingsLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ workspace: string }>;
}) {
  const { workspace } = await params;
  const owner = await requireOwner(workspace);
  return (
    <ToastProvider>
      <main className="flex flex-col gap-6">
        <div>
          <p className="text-sm text-slate-500">
            <Link href={`/w/${owner.workspace.id}`} className="hover:underline">
              {owner.workspace.name}
            </Link>
          </p>
          <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        </div>
        <SettingsNav workspace={owner.workspace.id} />
        {children}
      </main>
    </ToastProvider>
  );
}
