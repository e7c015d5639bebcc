import Link from "next/link";
import { Button } from "@/components/ui/button";
import { ThemeToggle } from "@/components/ui/theme";
import { requireUser } from "@/lib/auth/session";
import { signOutAction } from "./actions";

export default async function SignedInLayout({ children }: { children: React.ReactNode }) {
  const user = await requireUser();
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
          <Link href="/" className="text-lg font-semibold text-brand-700">
            Mnemo
          </Link>
          <div className="flex items-center gap-3 text-sm">
            <span role="note" className="hidden text-slate-600 sm:inline" aria-label="Signed in as">
              {user.name}
            </span>
            <ThemeToggle />
            <Link href="/you/data" className="font-medium text-brand-700 hover:underline">
              Your data
            </Link>
            <form action={signOutAction}>
              <Button type="submit" variant="ghost">
                Sign out
              </Button>
            </form>
          </div>
        </div>
      </header>
      {/* Room at the end for the toasts at the bottom of wider screens: the last buttons (Restore, say) scroll clear of them. */}
      <div className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 sm:px-6 sm:pb-28">{children}</div>
    </div>
  );
}
