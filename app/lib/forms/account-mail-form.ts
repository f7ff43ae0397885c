/**
 * What the account's mail forms answer (the forgotten-password, new-password, email-change and
 * confirmation forms): the server's actions and the offline ones alike. `tokenDead` marks a link
 * that no longer works, so the page offers a new one.
 */
export type MailFormErrors = { email?: string; password?: string; form?: string; tokenDead?: boolean };

/** The forgotten-password form: sent (the same answer whether the address has an account or not), or its problems. */
export type ResetRequestData = { email: string; sent: boolean; errors: MailFormErrors };

/** The new-password form's problems (success leaves the page). */
export type ResetPasswordData = { errors: MailFormErrors };

/** The email-change form in Settings → Account: sent to `email`, or its problems. */
export type EmailChangeData = { intent: "changeEmail"; email: string; sent: boolean; errors: MailFormErrors };

/** The confirmation page: the address confirmed, or why not. */
export type ConfirmEmailData = { confirmed: string | null; errors: MailFormErrors };

/** A briefing email's unsubscribe page: the emails stopped for the briefing named, or why not. */
export type UnsubscribeData = { stopped: string | null; errors: MailFormErrors };
