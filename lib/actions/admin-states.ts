/**
 * The small typed answers of owner settings' actions: a message for people, and
 * — once, right after it is made — a secret the owner must pass on. Never a row.
 */
export type AdminState =
  | { status: "idle" }
  /** `href`: where to go next, when the change took the page away (an owner who stepped down). */
  | { status: "success"; message: string; href?: string }
  /** `field`: the form field it is about (the form marks it and keeps what was typed). */
  | { status: "failed" | "invalid_data"; message: string; field?: string };

/** Adding a person who has no password yet: the invite link, shown once. */
export type InviteState = AdminState | { status: "invited"; message: string; link: string };

/**
 * Adding a person to a private channel or DM: refused, with the number of facts
 * they would see, until the owner confirms that very number.
 */
export type AddChannelMemberState = AdminState | { status: "failed"; message: string; confirmFacts: number };

/** A new agent key, shown once; only its hash is kept. `keyId`: so the page stops showing it once that key is revoked. */
export type NewKeyState = AdminState | { status: "key_created"; message: string; key: string; keyId: string };

/** Saving an agent's write policies: a refused choice names its radio group, so the error is shown on it. */
export type WritePoliciesState =
  | AdminState
  | { status: "invalid_data"; message: string; field: "workspaceFacts" | "channelFacts" };

/** A new webhook endpoint: its signing secret (whsec_…), shown once. */
export type NewWebhookState = AdminState | { status: "webhook_created"; message: string; secret: string };
