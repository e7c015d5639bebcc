"use client";

/**
 * "Expired": facts whose last day has passed — never recalled, still counted toward the
 * agent's limit — for the people who may change them: Renew with a new last day, or
 * Forget (to "Recently forgotten", as anywhere else on the page).
 */
import { useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { dayInWords } from "@/lib/day-words";
import { useMemory } from "./memory-context";
import { UntilField } from "./until-field";

export type ExpiredView = { id: string; body: string; validUntil: string; channelLabel: string | null };

export function ExpiredSection({ facts, total }: { facts: ExpiredView[]; total: number }) {
  if (!total) return null;
  return (
    <section aria-labelledby="expired-heading" className="flex flex-col gap-3">
      <h2 id="expired-heading" className="text-lg font-semibold">
        Expired
      </h2>
      <p className="text-sm text-slate-600">
        Their last day has passed, so agents no longer recall them, but they still count toward the limit. Renew
        one that holds again, or forget it.
        {total > facts.length ? ` The ${facts.length} most recently ended of ${total} are shown.` : ""}
      </p>
      <ul className="flex flex-col gap-2" aria-label="Expired facts">
        {facts.map((fact) => (
          <ExpiredItem key={fact.id} fact={fact} />
        ))}
      </ul>
    </section>
  );
}

function ExpiredItem({ fact }: { fact: ExpiredView }) {
  const { actions, workspace, agent } = useMemory();
  const toast = useToast();
  const [pending, start] = useTransition();
  const [renewing, setRenewing] = useState(false);
  const [day, setDay] = useState("");
  const [error, setError] = useState<string | null>(null);
  const bodyId = useId();
  const target = { workspace, agent, factId: fact.id };

  function renew(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    start(async () => {
      const result = await actions.renewFact({ ...target, valid_until: day });
      if (result.status === "success") toast({ message: result.message, tone: "info" });
      else setError("message" in result ? result.message : "Try again.");
    });
  }

  function forget() {
    start(async () => {
      const result = await actions.forgetFact(target);
      if (result.status !== "success") setError("message" in result ? result.message : "Try again.");
    });
  }

  return (
    <li
      aria-labelledby={bodyId}
      className="flex flex-col gap-2 rounded-md border border-dashed border-amber-300 bg-amber-50/50 p-3"
    >
      <p id={bodyId} className="break-words text-slate-800">
        {fact.body}
      </p>
      <p className="text-xs text-slate-600">
        {fact.channelLabel ? `${fact.channelLabel} · ` : ""}Ended after {dayInWords(fact.validUntil)}
      </p>
      {renewing ? (
        <form onSubmit={renew} aria-label="Renew fact" className="flex flex-wrap items-end gap-2">
          <UntilField label="Holds until" value={day} onChange={setDay} required />
          <Button type="submit" className="min-h-10" disabled={pending || !day}>
            {pending ? "Renewing…" : "Renew"}
          </Button>
          <Button type="button" variant="secondary" className="min-h-10" onClick={() => setRenewing(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <div className="flex gap-1">
          <Button variant="secondary" className="min-h-8 px-3 text-xs" disabled={pending} onClick={() => setRenewing(true)}>
            Renew
          </Button>
          <Button variant="ghost" className="min-h-8 px-3 text-xs text-red-700" disabled={pending} onClick={forget}>
            Forget
          </Button>
        </div>
      )}
      {error ? (
        <p role="alert" aria-label="Expired fact problem" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </li>
  );
}
