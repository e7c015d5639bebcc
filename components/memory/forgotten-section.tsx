import { FORGET_GRACE_DAYS } from "@/lib/memory/rules";
import { ForgottenList, type ForgottenView } from "./forgotten-list";

/** "Recently forgotten": what can still be restored, and until when. */
export function ForgottenSection({ facts }: { facts: ForgottenView[] }) {
  return (
    <section aria-labelledby="forgotten-heading" className="flex flex-col gap-3">
      {/* Focusable from script: focus lands here after "Forget permanently", when the item is gone. */}
      <h2 id="forgotten-heading" tabIndex={-1} className="text-lg font-semibold">
        Recently forgotten
      </h2>
      <p className="text-sm text-slate-600">
        Forgotten facts are never recalled. They can be restored for {FORGET_GRACE_DAYS} days, then they and
        their history are deleted.
      </p>
      <ForgottenList facts={facts} />
    </section>
  );
}
