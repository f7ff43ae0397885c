import type { ReactNode } from "react";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import type { Route } from "./+types/settings";
import type { loader as rootLoader } from "~/root";
import { AccountSection } from "~/components/account-section";
import { AccountSecurity } from "~/components/settings/account-security";
import { AppSection } from "~/components/settings/app-section";
import { ColorModeForm } from "~/components/color-mode-form";
import { LanguageForm } from "~/components/language-form";
import { AnalyticsConsent } from "~/components/settings/analytics-consent";
import { ManageAlertRules } from "~/components/settings/manage-alert-rules";
import { ManageBriefings } from "~/components/settings/manage-briefings";
import { ManagePlaces } from "~/components/settings/manage-places";
import { PreferencesForm } from "~/components/settings/preferences-form";
import { currentUser, handleAccountIntent } from "~/server/account.server";
import { handleAccountSecurityIntent } from "~/server/account-security.server";
import { isAccountSecurityIntent } from "~/lib/forms/account-security-form";
import { refreshSessionsAfter } from "~/lib/account-sessions";
import { handleEmailChangeRequest } from "~/server/account-mail.server";
import type { EmailChangeData } from "~/lib/forms/account-mail-form";
import { offlineAccountAction } from "~/lib/account-offline";
import { getBrowserGraphQL } from "~/lib/graphql/browser-client";
import { clientLoadQuery } from "~/lib/graphql/browser-load";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { ALERT_RULES_QUERY, PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import { ACCOUNT_SESSIONS_QUERY, BRIEFINGS_QUERY, MAIL_AVAILABLE_QUERY, SETTINGS_QUERY } from "~/lib/graphql/later-documents";
import { loadQuery } from "~/server/graphql/request-client.server";
import type { Load } from "~/lib/graphql/route-load";
import { DEFAULT_LOCALE } from "~/lib/i18n/config";
import { getI18n } from "~/server/i18n/middleware.server";
import { validateRoute } from "~/lib/route-validation";
import { replaceOfflinePages } from "~/lib/pwa/offline-caches";
import { refusedOffline } from "~/lib/pwa/offline-refusal";
import { useSectionInView } from "~/lib/navigation/use-section-in-view";
import { parseSettingsSection, type SettingsSection } from "~/lib/settings-section";

type Translate = (key: "errors.unknownSection" | "settings.title" | "app.name", options?: { section: string }) => string;

function settingsPage(request: Request, t: Translate, email: string | null, mailAvailable: boolean) {
  const section = validateRoute(
    parseSettingsSection(new URL(request.url).searchParams.get("section"), (name) => t("errors.unknownSection", { section: name })),
  );
  return { section, email, mailAvailable, title: `${t("settings.title")} · ${t("app.name")}` };
}

/**
 * What the page shows, fetched once for its first render (server) or into the cache (browser):
 * the sections' data, for a signed-in viewer (each side knows who that is its own way).
 */
async function loadSettings(load: Load, signedIn: boolean) {
  if (signedIn) {
    await Promise.all([
      load(SETTINGS_QUERY, {}),
      load(PLACES_QUERY, {}),
      load(BRIEFINGS_QUERY, {}),
      load(ALERT_RULES_QUERY, {}),
      load(ACCOUNT_SESSIONS_QUERY, {}),
    ]);
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  // No session cookie, no viewer: the server asks nothing then.
  const user = await currentUser(request, context);
  await loadSettings((query, variables) => loadQuery(context, query, variables), !!user);
  // Whether mail can be sent (the reset link, the email change, email briefings): signed in, Settings brought it along.
  const { mailAvailable } = await loadQuery(context, MAIL_AVAILABLE_QUERY, {});
  return settingsPage(request, getI18n(context).t, user?.email ?? null, mailAvailable);
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const { me } = await clientLoadQuery(VIEWER_QUERY, {});
  await loadSettings(clientLoadQuery, !!me);
  const { mailAvailable } = await clientLoadQuery(MAIL_AVAILABLE_QUERY, {});
  return settingsPage(request, i18next.t, me?.email ?? null, mailAvailable);
}

/**
 * POST /settings: the account forms (intent = signup | login | logout | changeEmail) and the account-security ones
 * (changePassword | endSession | endOtherSessions | deleteAccount).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get("intent");
  if (isAccountSecurityIntent(intent)) return handleAccountSecurityIntent(request, context, form, intent, getI18n(context));
  if (intent === "changeEmail") return handleEmailChangeRequest(context, form, getI18n(context));
  return handleAccountIntent(request, context, form, getI18n(context));
}

/**
 * Logging in or out (or deleting the account) changes whose data the page may show: the browser drops its cache and
 * WebSocket before the pages after it load. The account-security forms that keep this session only read the sessions
 * again. Offline, none of it can happen: the form says so instead of failing with a network error.
 */
export async function clientAction({ serverAction, request }: Route.ClientActionArgs) {
  if (!navigator.onLine) {
    const form = await request.formData();
    if (form.get("intent") !== "changeEmail") return offlineAccountAction(form);
    const email = String(form.get("email") ?? "");
    return refusedOffline<EmailChangeData>({ intent: "changeEmail", email, sent: false, errors: { form: i18next.t("errors.offline") } });
  }
  const intent = (await request.clone().formData()).get("intent");
  try {
    return await serverAction();
  } catch (thrown) {
    if (thrown instanceof Response && thrown.status >= 300 && thrown.status < 400) {
      // Still this session: only where the account is signed in has changed.
      if (!(await refreshSessionsAfter(intent))) {
        getBrowserGraphQL().reset();
        await replaceOfflinePages();
      }
    }
    throw thrown;
  }
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
  const { section, email, mailAvailable } = loaderData;
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const locale = root?.locale ?? DEFAULT_LOCALE;

  useSectionInView(section);

  return (
    <div className="flex max-w-2xl flex-col gap-6">
      <h1 className="text-3xl font-bold tracking-tight">{t("settings.title")}</h1>
      <Section id="account" title={t("settings.sections.account")}>
        <AccountSection email={email} mailAvailable={mailAvailable} />
        {email ? <AccountSecurity /> : null}
      </Section>
      {email ? (
        <>
          <Section id="places" title={t("settings.sections.places")}>
            <ManagePlaces />
          </Section>
          <Section id="briefings" title={t("settings.sections.briefings")}>
            <ManageBriefings />
          </Section>
          <Section id="alerts" title={t("settings.sections.alerts")}>
            <ManageAlertRules />
          </Section>
          <Section id="preferences" title={t("settings.sections.preferences")}>
            <PreferencesForm />
          </Section>
        </>
      ) : null}
      <Section id="app" title={t("settings.sections.app")}>
        <AppSection signedIn={Boolean(email)} />
      </Section>
      <Section id="appearance" title={t("settings.sections.appearance")}>
        <ColorModeForm />
      </Section>
      <Section id="language" title={t("settings.sections.language")}>
        <LanguageForm locale={locale} />
      </Section>
      {root ? (
        <Section id="privacy" title={t("settings.sections.privacy")}>
          <AnalyticsConsent config={root.analytics.config} optedIn={root.analytics.optedIn} />
        </Section>
      ) : null}
    </div>
  );
}
