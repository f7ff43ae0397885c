/** What the log-in and sign-up forms' action answers when it refuses: the server's action and the offline one alike. */
export type AccountFormErrors = { email?: string; password?: string; form?: string };
export type AccountActionData = { intent: "login" | "signup"; email: string; errors: AccountFormErrors };
