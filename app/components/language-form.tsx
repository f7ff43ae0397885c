import { useTranslation } from "react-i18next";
import { Form, useLocation, useNavigation } from "react-router";
import { localeDisplayName, SUPPORTED_LOCALES, type Locale } from "~/lib/i18n/config";

/** The language switcher: posts to the locale action, which sets the cookie and comes back. */
export function LanguageForm({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigation = useNavigation();
  return (
    <Form method="post" action="/resources/locale" className="flex flex-wrap items-end gap-3">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label className="flex flex-col gap-1">
        <span className="font-medium">{t("settings.language.label")}</span>
        <select name="locale" defaultValue={locale} key={locale} className="input">
          {SUPPORTED_LOCALES.map((option) => (
            <option key={option} value={option} lang={option}>
              {localeDisplayName(option)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button" disabled={navigation.state === "submitting"}>
        {t("settings.language.apply")}
      </button>
    </Form>
  );
}
