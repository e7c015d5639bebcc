/** The one answer for an invite link that is unknown, used, withdrawn, expired, or not for this account: nothing tells them apart. */
export const INVITE_UNUSABLE =
  "This invite link has expired, has already been used, or is not for this account. Ask a workspace owner for a new one.";

/** The link never sets the password of an account that exists: its owner signs in and joins. */
export const ACCOUNT_EXISTS =
  "This email already has a Mnemo account. Sign in with it, then open this link again to join.";
