/** What the account-security forms' action answers when it refuses (app/server/account-security.server.ts). */
export type ChangePasswordErrors = { currentPassword?: string; newPassword?: string; form?: string };
export type DeleteAccountErrors = { password?: string; form?: string };

export type AccountSecurityActionData =
  | { intent: "changePassword"; errors: ChangePasswordErrors }
  | { intent: "deleteAccount"; errors: DeleteAccountErrors }
  | { intent: "endSession" | "endOtherSessions"; errors: { form?: string } };

export const ACCOUNT_SECURITY_INTENTS = ["changePassword", "endSession", "endOtherSessions", "deleteAccount"] as const;
export type AccountSecurityIntent = (typeof ACCOUNT_SECURITY_INTENTS)[number];

export function isAccountSecurityIntent(intent: unknown): intent is AccountSecurityIntent {
  return (ACCOUNT_SECURITY_INTENTS as readonly unknown[]).includes(intent);
}

/** The intents after which the browser stays signed in with the same session (its cache stays; what they changed is read again). */
export function keepsSession(intent: unknown): boolean {
  return intent === "changePassword" || intent === "endSession" || intent === "endOtherSessions";
}
