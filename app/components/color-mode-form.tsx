import { useTranslation } from "react-i18next";
import { Form, useLocation } from "react-router";
import { COLOR_MODE_PREFERENCES } from "~/lib/theme/color-mode";
import { useColorMode } from "~/lib/theme/use-color-mode";

/**
 * Colour-mode choice in settings. With JavaScript a choice applies at once; without
 * it the form posts to the theme action, which saves it and comes back here.
 */
export function ColorModeForm() {
  const { t } = useTranslation();
  const { preference, setPreference } = useColorMode();
  const location = useLocation();
  return (
    <Form method="post" action="/resources/theme">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <fieldset>
        <legend className="mb-2 font-medium">{t("colorMode.label")}</legend>
        <div className="flex flex-wrap gap-2">
          {COLOR_MODE_PREFERENCES.map((option) => (
            <label key={option} className="choice">
              <input
                type="radio"
                name="theme"
                value={option}
                checked={preference === option}
                onChange={() => setPreference(option)}
                className="accent-primary"
              />
              {t(`colorMode.${option}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <noscript>
        <button type="submit" className="button mt-3">
          {t("colorMode.apply")}
        </button>
      </noscript>
    </Form>
  );
}
