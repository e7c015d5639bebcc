/** The one answer for an invite link that is unknown, used or expired: nothing tells them apart. */
export const INVITE_UNUSABLE =
  "This invite link has expired or has already been used. Ask a workspace owner for a new one.";
