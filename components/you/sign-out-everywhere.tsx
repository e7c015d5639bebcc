/**
 * "Sign out everywhere": one button that ends every session of the person, on
 * every device, this one included (lib/auth/session-version.ts).
 */
import { Button } from "@/components/ui/button";

export function SignOutEverywhere({ action }: { action: () => Promise<void> }) {
  return (
    <form action={action} className="flex flex-col gap-3" aria-labelledby="sign-out-everywhere-heading">
      <h2 id="sign-out-everywhere-heading" className="text-lg font-semibold">
        Sessions
      </h2>
      <p className="text-sm text-slate-600">
        Signed in on a computer you no longer use, or worried someone copied your session? Every browser signed in as
        you, this one included, is signed out on its next click.
      </p>
      <div>
        <Button type="submit" variant="secondary">
          Sign out everywhere
        </Button>
      </div>
    </form>
  );
}
