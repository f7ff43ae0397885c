import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/settings";
import { AccountSection } from "~/components/account-section";
import { ColorModeForm } from "~/components/color-mode-form";
import { LanguageForm } from "~/components/language-form";
import { currentUser, handleAccountIntent } from "~/lib/account.server";
import { getI18n, getLocale } from "~/lib/i18n/middleware.server";
import { validateRoute } from "~/lib/route-validation";
import { parseSettingsSection, type SettingsSection } from "~/lib/settings-section";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = getI18n(context);
  const section = validateRoute(
    parseSettingsSection(new URL(request.url).searchParams.get("section"), (name) =>
      t("errors.unknownSection", { section: name }),
    ),
  );
  const user = await currentUser(request, context);
  return { section, locale: getLocale(context), email: user?.email ?? null, title: `${t("settings.title")} · ${t("app.name")}` };
}

/** POST /settings: the account forms (intent = signup | login | logout). */
export async function action({ request, context }: Route.ActionArgs) {
  return handleAccountIntent(request, context, await request.formData(), getI18n(context));
}

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.title }] : []);

function Section({ id, title, children }: { id: SettingsSection; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="card scroll-mt-20">
      <h2 id={`${id}-heading`} className="mb-4 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { section, locale, email } = loaderData;

  useEffect(() => {
    if (section) document.getElementById(section)?.scrollIntoView({ block: "start" });
  }, [section]);

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight">{t("settings.title")}</h1>
      <Section id="account" title={t("settings.sections.account")}>
        <AccountSection email={email} />
      </Section>
      <Section id="appearance" title={t("settings.sections.appearance")}>
        <ColorModeForm />
      </Section>
      <Section id="language" title={t("settings.sections.language")}>
        <LanguageForm locale={locale} />
      </Section>
    </div>
  );
}
