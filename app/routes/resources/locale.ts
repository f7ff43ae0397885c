import { data } from "react-router";
import type { Route } from "./+types/locale";
import { UPDATE_SETTINGS_MUTATION } from "~/lib/graphql/later-documents";
import { graphqlErrorMessage } from "~/lib/graphql/errors";
import { requestGraphQL } from "~/server/graphql/request-client.server";
import { apiLanguage, isLocale, localeDisplayName } from "~/lib/i18n/config";
import { serializeLocaleCookie } from "~/server/i18n/locale-cookie.server";
import { i18nFor } from "~/server/i18n/middleware.server";
import { logRequestError, requestLogContext } from "~/lib/request-log-context";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { redirectWithToast } from "~/server/toast/flash-toast.server";

/**
 * Switches the interface language: sets the locale cookie and returns to the page. A
 * signed-in user's bot switches too: it writes their messages in the language they read.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const locale = form.get("locale");
  if (!isLocale(locale)) {
    return data({ ok: false, message: "locale must be one of en-US, de-DE, fr-FR, es-ES" }, { status: 400 });
  }
  const graphql = requestGraphQL(context);
  if (graphql.signedIn) {
    const result = await graphql.client.mutation(UPDATE_SETTINGS_MUTATION, { input: { language: apiLanguage(locale) } }).toPromise();
    // The page still switches; only the bot keeps its old language, and the log says why.
    if (result.error) {
      logRequestError(context.get(requestLogContext), `[locale] could not save the bot's language: ${graphqlErrorMessage(result.error)}`);
    }
  }
  // The confirmation is translated into the newly chosen language.
  const i18n = i18nFor(locale);
  return redirectWithToast(
    safeRedirectPath(form.get("redirectTo"), "/settings"),
    { title: i18n.t("settings.language.changed", { language: localeDisplayName(locale) }), variant: "success" },
    { status: 303, headers: { "Set-Cookie": serializeLocaleCookie(locale) } },
  );
}
