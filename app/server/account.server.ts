import { data, type RouterContextProvider } from "react-router";
import type { i18n } from "i18next";
import { logInInput, signUpInput } from "~/shared/inputs/account";
import { checkInput } from "~/shared/inputs/issues";
import type { AccountActionData, AccountFormErrors } from "../lib/forms/account-form";
import { apiIssues, fieldErrors } from "../lib/forms/field-errors";
import { graphqlErrorCodes } from "../lib/graphql/errors";
import { LogInDocument as LOG_IN, LogOutDocument as LOG_OUT, SignUpDocument as SIGN_UP } from "../lib/account-documents.generated";
import { VIEWER_QUERY } from "../lib/graphql/documents";
import { apiLanguage, DEFAULT_LOCALE, isLocale, localeOfApiLanguage } from "../lib/i18n/config";
import { serializeLocaleCookie } from "./i18n/locale-cookie.server";
import { i18nFor } from "./i18n/middleware.server";
import { loadQuery, requestGraphQL } from "./graphql/request-client.server";
import { browserRegion } from "../shared/regional-defaults";
import { safeRedirectPath } from "../lib/safe-redirect";
import { canonicalTimeZone } from "../shared/time-zone";
import { clearedSessionCookie, sessionCookie, sessionToken } from "./session.server";
import { redirectWithToast } from "./toast/flash-toast.server";

const ACCOUNT_FIELDS = ["email", "password"] as const;

/** The signed-in user, or null (no cookie, or a token that is expired or revoked). */
export async function currentUser(request: Request, context: Readonly<RouterContextProvider>) {
  if (!sessionToken(request)) return null;
  // Through the request's client: the page's loaders asking again cost nothing, and the
  // answer is part of the page's data for the browser.
  return (await loadQuery(context, VIEWER_QUERY, {})).me;
}

/**
 * The settings page's account forms (`intent` = signup, login or logout), with or without
 * JavaScript: success answers 303 with the session cookie set or cleared; a failure
 * answers 400 with field errors and what the user typed (never the password).
 */
export async function handleAccountIntent(request: Request, context: Readonly<RouterContextProvider>, form: FormData, i18n: i18n) {
  const { t } = i18n;
  const intent = form.get("intent");
  // Signed in, the weather is on Home; logging out stays where the account form is.
  const redirectTo = safeRedirectPath(form.get("redirectTo"), intent === "logout" ? "/settings" : "/");

  if (intent === "logout") {
    await requestGraphQL(context).client.mutation(LOG_OUT, {}).toPromise();
    return redirectWithToast(
      redirectTo,
      { title: t("account.loggedOut"), variant: "success" },
      {
        status: 303,
        // The browser drops what it cached for this site (pages, back/forward copies).
        headers: { "Set-Cookie": clearedSessionCookie(request), "Clear-Site-Data": '"cache"' },
      },
    );
  }
  if (intent !== "login" && intent !== "signup") {
    return data(
      { intent: "login" as const, email: "", errors: { form: t("account.errors.unknown", { message: "intent" }) } },
      { status: 400 },
    );
  }

  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  // The API's own schema, so that a problem is said on its field before the API is asked.
  const checked = checkInput(intent === "signup" ? signUpInput : logInInput, { email, password });
  if (!checked.ok) {
    return data<AccountActionData>({ intent, email, errors: fieldErrors(checked.issues, t, { fields: ACCOUNT_FIELDS }) }, { status: 400 });
  }

  const timeZone = String(form.get("timeZone") ?? "");
  const locale = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  const { client } = requestGraphQL(context);
  const result =
    intent === "signup"
      ? await client
          .mutation(SIGN_UP, {
            email,
            password,
            language: apiLanguage(locale),
            timeZone: canonicalTimeZone(timeZone),
            // The units the visitor saw on the way in: the browser's region's.
            region: browserRegion(request.headers.get("Accept-Language"), locale),
          })
          .toPromise()
      : await client.mutation(LOG_IN, { email, password }).toPromise();

  const token = result.data && ("signUp" in result.data ? result.data.signUp.token : result.data.logIn.token);
  if (!token) {
    // Input problems the API found (a taken email) on their fields, like the schema's; other errors by their code.
    const errors: AccountFormErrors = fieldErrors(apiIssues(result.error), t, { fields: ACCOUNT_FIELDS });
    for (const error of result.error ? graphqlErrorCodes(result.error) : []) {
      if (error.code === "BAD_USER_INPUT" && (error.field === "email" || error.field === "password")) continue;
      const reason = error.reason ?? error.code ?? "";
      const known = t(`account.errors.${reason}` as "account.errors.unknown", {
        seconds: error.retryAfterSeconds,
        defaultValue: "",
      });
      const message = known || t("account.errors.unknown", { message: error.message });
      if (error.field === "email" || error.field === "password") errors[error.field] ??= message;
      else errors.form ??= message;
    }
    if (!errors.email && !errors.password && !errors.form) {
      errors.form = t("account.errors.unknown", { message: result.error?.message ?? "no token" });
    }
    return data<AccountActionData>({ intent, email, errors }, { status: 400 });
  }
  // Logging in brings back the account's language; the page switches to it with the session.
  const accountLocale = result.data && "logIn" in result.data ? localeOfApiLanguage(result.data.logIn.user.settings.language) : null;
  const headers = new Headers({ "Set-Cookie": sessionCookie(request, token) });
  if (accountLocale && accountLocale !== i18n.language) headers.append("Set-Cookie", serializeLocaleCookie(accountLocale));
  const say = accountLocale ? i18nFor(accountLocale).t : t;
  return redirectWithToast(
    redirectTo,
    { title: intent === "signup" ? say("account.accountCreated") : say("account.welcomeBack"), variant: "success" },
    { status: 303, headers },
  );
}
