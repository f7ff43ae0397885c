import type { CombinedError } from "@urql/core";
import type { i18n } from "i18next";
import { data, type RouterContextProvider } from "react-router";
import {
  BriefingEmailDocument as BRIEFING_EMAIL,
  ConfirmEmailChangeDocument as CONFIRM_EMAIL_CHANGE,
  RequestEmailChangeDocument as REQUEST_EMAIL_CHANGE,
  RequestPasswordResetDocument as REQUEST_PASSWORD_RESET,
  ResetPasswordDocument as RESET_PASSWORD,
  UnsubscribeBriefingEmailDocument as UNSUBSCRIBE_BRIEFING_EMAIL,
} from "../lib/account-documents.generated";
import type {
  ConfirmEmailData,
  EmailChangeData,
  MailFormErrors,
  ResetPasswordData,
  ResetRequestData,
  UnsubscribeData,
} from "../lib/forms/account-mail-form";
import { apiIssues, fieldErrors } from "../lib/forms/field-errors";
import { VIEWER_QUERY } from "../lib/graphql/documents";
import { graphqlErrorCodes } from "../lib/graphql/errors";
import { emailChangeInput, passwordResetInput, passwordResetRequestInput } from "../shared/inputs/account-mail";
import { checkInput } from "../shared/inputs/issues";
import { currentUser } from "./account.server";
import { requestGraphQL } from "./graphql/request-client.server";
import { clearedSessionCookie } from "./session.server";
import { redirectWithToast } from "./toast/flash-toast.server";

/** Where each input's problem shows: a link's problem (its token) belongs to the whole form. */
const FIELDS = { email: "email", password: "password", token: "form" } as const;
const TOKEN_REFUSALS = new Set(["TOKEN_INVALID", "TOKEN_EXPIRED", "TOKEN_USED"]);

/** A refused mutation's problems in the reader's language: input issues on their fields, the rest (limits, no mail) on the form. */
function refusalErrors(error: CombinedError | undefined, t: i18n["t"]): MailFormErrors {
  const issues = apiIssues(error);
  const errors: MailFormErrors = fieldErrors(issues, t, { fields: FIELDS });
  if (issues.some((issue) => issue.field === "token" && TOKEN_REFUSALS.has(issue.code))) errors.tokenDead = true;
  for (const refusal of error ? graphqlErrorCodes(error) : []) {
    if (refusal.code === "BAD_USER_INPUT" && refusal.field && refusal.field in FIELDS) continue;
    if (refusal.code === "RATE_LIMITED") errors.form ??= t("passwordReset.rateLimited", { seconds: refusal.retryAfterSeconds ?? 60 });
    else if (refusal.reason === "MAIL_UNAVAILABLE") errors.form ??= t("mailUnavailable");
    else errors.form ??= t("account.errors.unknown", { message: refusal.message });
  }
  if (!errors.email && !errors.password && !errors.form) errors.form = t("account.errors.unknown", { message: error?.message ?? "" });
  return errors;
}

/** "Forgot your password?": the same answer whether or not the address has an account (only its problems differ). */
export async function handleResetRequest(context: Readonly<RouterContextProvider>, form: FormData, { t }: i18n) {
  const email = String(form.get("email") ?? "").trim();
  const checked = checkInput(passwordResetRequestInput, { email });
  if (!checked.ok) {
    return data<ResetRequestData>({ email, sent: false, errors: fieldErrors(checked.issues, t, { fields: FIELDS }) }, { status: 400 });
  }
  const result = await requestGraphQL(context).client.mutation(REQUEST_PASSWORD_RESET, { email: checked.value.email }).toPromise();
  if (!result.data?.requestPasswordReset) {
    return data<ResetRequestData>({ email, sent: false, errors: refusalErrors(result.error, t) }, { status: 400 });
  }
  return data<ResetRequestData>({ email: checked.value.email, sent: true, errors: {} });
}

/**
 * The new password from a reset link: saved, every session of the account ended (this browser's
 * too, when it was signed in to that account: its cookie goes), and on to log in; or why not.
 */
export async function handlePasswordReset(request: Request, context: Readonly<RouterContextProvider>, form: FormData, { t }: i18n) {
  const token = String(form.get("token") ?? "");
  const password = String(form.get("password") ?? "");
  const checked = checkInput(passwordResetInput, { token, password });
  if (!checked.ok) {
    const errors: MailFormErrors = fieldErrors(checked.issues, t, { fields: FIELDS });
    if (checked.issues.some((issue) => issue.field === "token")) errors.tokenDead = true;
    return data<ResetPasswordData>({ errors }, { status: 400 });
  }
  const signedIn = await currentUser(request, context);
  const { client } = requestGraphQL(context);
  const result = await client.mutation(RESET_PASSWORD, { token, password }).toPromise();
  if (!result.data?.resetPassword) return data<ResetPasswordData>({ errors: refusalErrors(result.error, t) }, { status: 400 });
  // Was this browser's session one of those the reset ended? Then its cookie and cached pages go too.
  const still = signedIn ? await client.query(VIEWER_QUERY, {}, { requestPolicy: "network-only" }).toPromise() : null;
  const ended = signedIn !== null && !still?.data?.me;
  return redirectWithToast(
    "/settings?section=account",
    { title: t("passwordReset.done"), variant: "success" },
    { status: 303, headers: ended ? { "Set-Cookie": clearedSessionCookie(request), "Clear-Site-Data": '"cache"' } : {} },
  );
}

/** Another account's address: said as such (sign-up's words would tell the reader to log in instead). */
function takenSaidPlainly(error: CombinedError | undefined, errors: MailFormErrors, t: i18n["t"]): MailFormErrors {
  if (apiIssues(error).some((issue) => issue.code === "EMAIL_TAKEN")) errors.email = t("emailChange.taken");
  return errors;
}

/** Settings → Account, a new address: a link goes to it; the address changes only when it is followed. */
export async function handleEmailChangeRequest(context: Readonly<RouterContextProvider>, form: FormData, { t }: i18n) {
  const email = String(form.get("email") ?? "").trim();
  const checked = checkInput(emailChangeInput, { email });
  if (!checked.ok) {
    const errors = fieldErrors(checked.issues, t, { fields: FIELDS });
    return data<EmailChangeData>({ intent: "changeEmail", email, sent: false, errors }, { status: 400 });
  }
  const result = await requestGraphQL(context).client.mutation(REQUEST_EMAIL_CHANGE, { email: checked.value.email }).toPromise();
  if (!result.data?.requestEmailChange) {
    const errors = takenSaidPlainly(result.error, refusalErrors(result.error, t), t);
    return data<EmailChangeData>({ intent: "changeEmail", email, sent: false, errors }, { status: 400 });
  }
  return data<EmailChangeData>({ intent: "changeEmail", email: checked.value.email, sent: true, errors: {} });
}

/** The confirmation link's page, its button pressed: the account's address becomes the new one, or why not. */
export async function handleEmailChangeConfirm(context: Readonly<RouterContextProvider>, form: FormData, { t }: i18n) {
  const token = String(form.get("token") ?? "");
  const result = await requestGraphQL(context).client.mutation(CONFIRM_EMAIL_CHANGE, { token }).toPromise();
  const confirmed = result.data?.confirmEmailChange ?? null;
  if (!confirmed) {
    const errors = takenSaidPlainly(result.error, refusalErrors(result.error, t), t);
    // The page has no address field: an address taken meanwhile is the whole form's problem.
    errors.form ??= errors.email;
    return data<ConfirmEmailData>({ confirmed: null, errors }, { status: 400 });
  }
  return data<ConfirmEmailData>({ confirmed, errors: {} });
}

/** What an unsubscribe link is for (null: not a link of this server's, or its briefing is gone). */
export async function briefingEmailOf(context: Readonly<RouterContextProvider>, token: string) {
  if (!token) return null;
  const result = await requestGraphQL(context).client.query(BRIEFING_EMAIL, { token }, { requestPolicy: "network-only" }).toPromise();
  return result.data?.briefingEmail ?? null;
}

/**
 * A briefing email's unsubscribe link, POSTed: by the page's button, or by a mail client's
 * one-click unsubscribe (RFC 8058: `List-Unsubscribe=One-Click` in the body, the token in the URL).
 */
export async function handleUnsubscribe(request: Request, context: Readonly<RouterContextProvider>, form: FormData, { t }: i18n) {
  const token = String(form.get("token") ?? new URL(request.url).searchParams.get("token") ?? "");
  const result = await requestGraphQL(context).client.mutation(UNSUBSCRIBE_BRIEFING_EMAIL, { token }).toPromise();
  const stopped = result.data?.unsubscribeBriefingEmail.briefingName ?? null;
  if (stopped === null) {
    // A link not made here, or a briefing that is gone: nothing is emailed for either.
    return data<UnsubscribeData>({ stopped: null, errors: { form: t("unsubscribe.invalid") } }, { status: 400 });
  }
  return data<UnsubscribeData>({ stopped, errors: {} });
}
