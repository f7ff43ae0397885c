import { data } from "react-router";
import { Theme } from "remix-themes";
import type { Route } from "./+types/theme";
import { getI18n } from "~/server/i18n/middleware.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { isColorModePreference } from "~/lib/theme/color-mode";
import { themeSessionResolver } from "~/server/theme/theme-session.server";
import { redirectWithToast } from "~/server/toast/flash-toast.server";

/**
 * Saves the colour-mode preference in the theme cookie. remix-themes posts JSON
 * (`{ theme: "dark" | null }`, null = follow the system); the settings form posts
 * `theme=light|dark|system` without JavaScript and is sent back where it came from.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const session = await themeSessionResolver(request);
  const isForm = /^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(request.headers.get("Content-Type") ?? "");
  const form = isForm ? await request.formData() : null;
  let preference: unknown;
  if (form) {
    preference = form.get("theme");
  } else {
    try {
      const body = (await request.json()) as { theme?: unknown };
      preference = body.theme ?? "system";
    } catch {
      preference = undefined;
    }
  }
  if (!isColorModePreference(preference)) {
    return data({ ok: false, message: "theme must be light, dark or system" }, { status: 400 });
  }
  let setCookie: string;
  if (preference === "system") {
    setCookie = await session.destroy();
  } else {
    session.setTheme(preference === "dark" ? Theme.DARK : Theme.LIGHT);
    setCookie = await session.commit();
  }
  if (!form) return data({ ok: true }, { headers: { "Set-Cookie": setCookie } });

  const { t } = getI18n(context);
  return redirectWithToast(
    safeRedirectPath(form.get("redirectTo"), "/settings"),
    { title: t("settings.colorMode.changed", { mode: t(`colorMode.${preference}`) }), variant: "success" },
    { status: 303, headers: { "Set-Cookie": setCookie } },
  );
}
