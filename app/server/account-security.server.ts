import type { CombinedError } from "@urql/core";
import type { i18n, TFunction } from "i18next";
import { data, type RouterContextProvider } from "react-router";
import { changePasswordInput, deleteAccountInput } from "~/shared/inputs/account";
import { checkInput } from "~/shared/inputs/issues";
import {
  ChangePasswordDocument as CHANGE_PASSWORD,
  DeleteAccountDocument as DELETE_ACCOUNT,
  EndOtherSessionsDocument as END_OTHER_SESSIONS,
  EndSessionDocument as END_SESSION,
} from "../lib/account-security-documents.generated";
import type { AccountSecurityActionData, AccountSecurityIntent } from "../lib/forms/account-security-form";
import { apiIssues, fieldErrors } from "../lib/forms/field-errors";
import { graphqlErrorCodes } from "../lib/graphql/errors";
import { currentUser } from "./account.server";
import { requestGraphQL } from "./graphql/request-client.server";
import { clearedSessionCookie } from "./session.server";
import { redirectWithToast } from "./toast/flash-toast.server";

/** Where every account-security form returns: the settings page, at the account section. */
const BACK = "/settings?section=account";

/**
 * A refused operation as the form's errors: input issues on their fields (a wrong current password, a new one against
 * the rules), anything else (limits, a session that ended meanwhile, an outage) in the form's own line.
 */
function refusal(error: CombinedError | undefined, t: TFunction, fields: readonly string[]): Partial<Record<string, string>> {
  const errors: Partial<Record<string, string>> = fieldErrors(apiIssues(error), t, { fields });
  for (const entry of error ? graphqlErrorCodes(error) : []) {
    if (entry.code === "BAD_USER_INPUT" && entry.field && fields.includes(entry.field)) continue;
    const reason = entry.reason ?? entry.code ?? "";
    const known =
      reason === "UNAUTHENTICATED"
        ? t("accountSecurity.errors.signedOut")
        : t(`account.errors.${reason}` as "account.errors.unknown", { seconds: entry.retryAfterSeconds, defaultValue: "" });
    errors.form ??= known || t("account.errors.unknown", { message: entry.message });
  }
  if (Object.keys(errors).length === 0) errors.form = t("account.errors.unknown", { message: error?.message ?? "no answer" });
  return errors;
}

const refused = (body: AccountSecurityActionData) => data(body, { status: 400 });

/**
 * The account-security forms of the settings page (`intent` = changePassword, endSession, endOtherSessions or
 * deleteAccount), with or without JavaScript, as the account forms: success answers 303 back to the account section
 * with a toast (deleting the account also clears the session cookie); a refusal answers 400 with the form's errors,
 * never a password.
 */
export async function handleAccountSecurityIntent(
  request: Request,
  context: Readonly<RouterContextProvider>,
  form: FormData,
  intent: AccountSecurityIntent,
  i18n: i18n,
) {
  const { t } = i18n;
  const { client } = requestGraphQL(context);
  const text = (name: string) => String(form.get(name) ?? "");

  switch (intent) {
    case "changePassword": {
      const user = await currentUser(request, context);
      const input = { email: user?.email ?? "", currentPassword: text("currentPassword"), newPassword: text("newPassword") };
      // The API's own rules, said on their fields before the API is asked.
      const checked = checkInput(changePasswordInput, input);
      if (!checked.ok) return refused({ intent, errors: fieldErrors(checked.issues, t, { fields: ["currentPassword", "newPassword"] }) });
      const result = await client
        .mutation(CHANGE_PASSWORD, { currentPassword: input.currentPassword, newPassword: input.newPassword })
        .toPromise();
      if (result.data?.changePassword === undefined)
        return refused({ intent, errors: refusal(result.error, t, ["currentPassword", "newPassword"]) });
      return redirectWithToast(BACK, { title: t("accountSecurity.password.changed"), variant: "success" }, { status: 303 });
    }
    case "endSession": {
      const result = await client.mutation(END_SESSION, { id: text("sessionId") }).toPromise();
      if (!result.data?.endSession) return refused({ intent, errors: refusal(result.error, t, []) });
      return redirectWithToast(BACK, { title: t("accountSecurity.sessions.ended"), variant: "success" }, { status: 303 });
    }
    case "endOtherSessions": {
      const result = await client.mutation(END_OTHER_SESSIONS, {}).toPromise();
      const ended = result.data?.endOtherSessions;
      if (ended === undefined) return refused({ intent, errors: refusal(result.error, t, []) });
      return redirectWithToast(
        BACK,
        { title: t("accountSecurity.sessions.endedOthers", { number: ended }), variant: "success" },
        { status: 303 },
      );
    }
    case "deleteAccount": {
      const password = text("password");
      const checked = checkInput(deleteAccountInput, { password });
      if (!checked.ok) return refused({ intent, errors: fieldErrors(checked.issues, t, { fields: ["password"] }) });
      const result = await client.mutation(DELETE_ACCOUNT, { password }).toPromise();
      if (!result.data?.deleteAccount) return refused({ intent, errors: refusal(result.error, t, ["password"]) });
      return redirectWithToast(
        "/settings",
        { title: t("accountSecurity.delete.deleted"), variant: "success" },
        // Logged out as by "Log out": the cookie goes, and the browser drops what it cached of the account.
        { status: 303, headers: { "Set-Cookie": clearedSessionCookie(request), "Clear-Site-Data": '"cache"' } },
      );
    }
  }
}
