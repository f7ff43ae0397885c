import type { ReactNode } from "react";
import { useContext, useEffect } from "react";
import { I18nContext } from "react-i18next";
import { PageTranslationContext, usePageTranslationValue } from "./lib/i18n/use-page-translation";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useMatches, useRouteLoaderData } from "react-router";
import { PreventFlashOnWrongTheme, ThemeProvider, useTheme } from "remix-themes";
import type { Route } from "./+types/root";
import { AnalyticsTracker } from "./components/analytics-tracker";
import { LazyErrorView, preloadErrorViewWhenIdle } from "./components/lazy-error-view";
import { NavigationProgress } from "./components/navigation-progress";
import { PwaController } from "./components/pwa/pwa-controller";
import { Toaster } from "./components/ui/toaster";
import { hasOptedIn } from "./lib/analytics/consent";
import { browserRegion } from "~/shared/regional-defaults";
import { pageHydration, rootHydrated } from "./lib/page-hydration";
import { GraphQLProvider } from "./lib/graphql/provider";
import { requestGraphQL } from "./server/graphql/request-client.server";
import { GraphQLDataScript } from "./lib/graphql/ssr-data";
import { getLocale } from "./server/i18n/middleware.server";
import { textDirection } from "./lib/i18n/config";
import { middlewareNamed } from "./server/middleware/registry.server";
import { serverEnv } from "./server/env.server";
import { sessionKey } from "./server/session.server";
import { useNonce } from "./lib/nonce";
import { RequestIdMeta, RequestIdProvider } from "./lib/request-id";
import { fullLoadWhenNeeded } from "./lib/pwa/full-load";
import { revalidateUnlessRefusedOffline } from "./lib/pwa/offline-refusal";
import { WEB_MANIFEST, WEB_MANIFEST_URL } from "./lib/pwa/web-manifest";
import { forcedColorMode } from "./lib/theme/color-mode";
import { themeSessionResolver } from "./server/theme/theme-session.server";
import { takeFlashToast } from "./server/toast/flash-toast.server";
import { toastStore } from "./lib/toast/toast-store";
import stylesheet from "./app.css?url";
import { InlineStylesheet } from "./components/inline-stylesheet";

export const middleware: Route.MiddlewareFunction[] = middlewareNamed("i18n", "graphql");
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [fullLoadWhenNeeded];
export const shouldRevalidate = revalidateUnlessRefusedOffline;

export const links: Route.LinksFunction = () => [
  // Production pages carry the stylesheet inline (InlineStylesheet); Vite's dev server updates this one.
  ...(import.meta.env.DEV ? [{ rel: "stylesheet", href: stylesheet }] : []),
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: WEB_MANIFEST_URL },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [themeSession, flash] = await Promise.all([themeSessionResolver(request), takeFlashToast(request)]);
  const env = serverEnv();
  const session = {
    key: sessionKey(request),
    // A hosted API (GRAPHQL_URL) has no WebSocket endpoint here: data then goes over HTTP only.
    live: !env.GRAPHQL_URL,
    liveSince: requestGraphQL(context).liveSince,
  };
  const analytics = {
    // Public by design (it ships to every browser); no key, no analytics.
    config: env.POSTHOG_KEY ? { key: env.POSTHOG_KEY, host: env.POSTHOG_HOST } : null,
    optedIn: hasOptedIn(request.headers.get("Cookie")),
  };
  return data(
    {
      locale: getLocale(context),
      // A visitor's units follow the region the browser names (the UK: °C and mph).
      region: browserRegion(request.headers.get("Accept-Language"), getLocale(context)),
      theme: themeSession.getTheme(),
      toast: flash.toast,
      session,
      renderedAt: Date.now(),
      analytics,
    },
    flash.setCookie ? { headers: { "Set-Cookie": flash.setCookie } } : undefined,
  );
}

function Document({ children }: { children: ReactNode }) {
  const loaderData = useRouteLoaderData<typeof loader>("root");
  const [theme] = useTheme();
  const translation = usePageTranslationValue();
  const { t, i18n } = translation;
  const nonce = useNonce();
  const forced = forcedColorMode(useMatches().map((match) => match.handle));
  const mode = forced ?? theme;
  const locale = loaderData?.locale ?? i18n.language;

  return (
    <html lang={locale} dir={textDirection(i18n, locale)} className={mode ?? undefined} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="description" content={t("app.tagline")} />
        <meta name="theme-color" content={WEB_MANIFEST.theme_color} />
        <RequestIdMeta />
        <Meta />
        <Links />
        <InlineStylesheet nonce={nonce} />
        <PreventFlashOnWrongTheme ssrTheme={Boolean(forced ?? loaderData?.theme)} nonce={nonce} />
      </head>
      <body className="min-h-dvh bg-default text-default antialiased">
        <PageTranslationContext.Provider value={translation}>{children}</PageTranslationContext.Provider>
        <GraphQLDataScript sessionKey={loaderData?.session.key} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const loaderData = useRouteLoaderData<typeof loader>("root");
  return (
    <ThemeProvider specifiedTheme={loaderData?.theme ?? null} themeAction="/resources/theme">
      <RequestIdProvider>
        <Document>{children}</Document>
      </RequestIdProvider>
    </ThemeProvider>
  );
}

/** Keeps the browser's i18next on the locale the server chose (after a language switch). */
function useSyncLocale(locale: string) {
  // The instance itself: this only acts in an effect, so it needs none of useTranslation's re-render on a language change.
  const { i18n } = useContext(I18nContext);
  useEffect(() => {
    if (i18n.language !== locale) void i18n.changeLanguage(locale);
  }, [i18n, locale]);
}

/** Shows a toast that a server action left in the flash cookie. */
function useFlashToast(toast: Route.ComponentProps["loaderData"]["toast"]) {
  useEffect(() => {
    if (toast) toastStore.show(toast);
  }, [toast]);
}

/**
 * Marks <html data-hydrated> once React owns the whole page, a part hydrated in a pass of its own included
 * (page-hydration.ts), and which build's code runs it (end-to-end tests read both).
 */
function useHydratedMarker() {
  useEffect(() => {
    document.documentElement.dataset.build = __BUILD_ID__;
    rootHydrated();
    void pageHydration.then(() => (document.documentElement.dataset.hydrated = "true"));
  }, []);
}

export default function App({ loaderData }: Route.ComponentProps) {
  useSyncLocale(loaderData.locale);
  useFlashToast(loaderData.toast);
  useHydratedMarker();
  // Ready before a later navigation fails (it is not part of the first load).
  useEffect(() => preloadErrorViewWhenIdle(), []);
  return (
    <GraphQLProvider session={loaderData.session}>
      <NavigationProgress />
      <PwaController />
      {/* Not id="app": that is the settings' "App and notifications" section, which ?section=app scrolls to. */}
      <div id="app-root" className="app-container flex min-h-dvh flex-col">
        <Outlet />
      </div>
      <Toaster />
      <AnalyticsTracker config={loaderData.analytics.config} />
    </GraphQLProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <div id="app-root" className="app-container px-4">
      <LazyErrorView error={error} />
    </div>
  );
}
