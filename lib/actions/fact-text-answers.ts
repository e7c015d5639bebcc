/**
 * What the Memory page's actions answer about a fact's text, shared by Add, Edit
 * and the Inbox's Edit and approve so the three say the same: a credential is
 * refused, and instruction-like text is kept only once the person confirms it.
 */
import type { FactActionState } from "@/lib/actions/memory-states";
import { cleanFact } from "@/lib/memory/fact-text";
import { looksLikeInstruction } from "@/lib/memory/instruction-text";
import { looksLikeSecret } from "@/lib/memory/secrets";

export function secretMessage(what: string): string {
  return `That looks like ${what}. Mnemo never keeps credentials: take it out and try again.`;
}

/**
 * The instruction-like warning, decided here on the server whatever the browser
 * sent: flagged text is kept only when the person confirmed it. The detector reads
 * the text as it would be stored; blanks and credentials are left to the write,
 * which refuses them with its own message (a warning before "take the password
 * out" would ask to confirm something that can never be kept).
 */
export function instructionWarning(text: string, confirm: boolean): FactActionState | null {
  if (confirm) return null;
  const body = cleanFact(text);
  if (!body || looksLikeSecret(body)) return null;
  const verdict = looksLikeInstruction(body);
  if (!verdict.flagged) return null;
  return {
    status: "warning",
    why: verdict.why,
    message:
      `This reads like an instruction to the agent (${verdict.why}). ` +
      "Agents treat facts as notes, but a fact like this can still mislead them. Keep it anyway?",
  };
}
