/**
 * What a form and the schema that checks it must agree on, with no zod in it: client
 * components import these, and importing them from a schema module shipped zod (~110 kB
 * of script) to every page with one of those forms.
 */

/** The shortest password a new account or a reset may choose. */
export const MIN_PASSWORD_LENGTH = 8;

/** The most a decline's reason may say; it is kept in the proposal's history. */
export const MAX_DECLINE_REASON = 200;

/** The largest facts file an import reads: a full agent (2,000 facts) with a long history each. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/** Why an import's file is refused for its size alone. */
export const IMPORT_TOO_LARGE = `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it, or leave out the history.`;

const CONFIRM_NAME = "name:";

/** The form field that carries the typed name of a workspace deleted with the account. */
export function confirmNameField(workspaceId: string): string {
  return `${CONFIRM_NAME}${workspaceId}`;
}

/** The workspace a confirmNameField names, or null for any other field. */
export function confirmedWorkspace(field: string): string | null {
  return field.startsWith(CONFIRM_NAME) ? field.slice(CONFIRM_NAME.length) : null;
}
