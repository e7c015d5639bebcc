/**
 * What a person is told when a memory action did not go through: the action's own
 * words when it gave some, else one plain sentence — the same on every card, form and
 * note of the Memory page.
 */
export const TRY_AGAIN = "Something went wrong. Try again.";

export function messageOf(result: { status: string; message?: string }): string {
  return result.message ?? TRY_AGAIN;
}
