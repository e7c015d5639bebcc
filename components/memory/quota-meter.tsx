import { MAX_FACTS } from "@/lib/memory/rules";

/** Facts kept of the agent's limit, as a bar and in words; and how many expired ones could make room. */
export function QuotaMeter({ used, label, expired = 0 }: { used: number; label: string; expired?: number }) {
  const share = Math.min(1, used / MAX_FACTS);
  const tone = share >= 1 ? "bg-red-600" : share >= 0.9 ? "bg-amber-500" : "bg-brand-600";
  return (
    <div className="flex flex-col gap-1">
      <div
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={MAX_FACTS}
        aria-valuenow={used}
        aria-valuetext={`${used.toLocaleString("en-US")} of ${MAX_FACTS.toLocaleString("en-US")} facts`}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className={`h-full ${tone}`} style={{ width: `${share * 100}%` }} />
      </div>
      <p className="text-xs text-slate-600">
        {used.toLocaleString("en-US")} of {MAX_FACTS.toLocaleString("en-US")} facts kept
        {expired ? ` · ${expired.toLocaleString("en-US")} expired could be forgotten` : ""}
      </p>
    </div>
  );
}
