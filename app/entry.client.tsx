import i18next from "i18next";
import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { yieldToMain } from "./lib/browser-idle";
import { getBrowserGraphQL } from "./lib/graphql/browser-client";
import { installPageGraphQL } from "./lib/graphql/install-browser";
import { GraphQLClientSourceContext } from "./lib/graphql/provider";
import { GraphQLDataContext } from "./lib/graphql/ssr-data";
import { i18nextOptions } from "./lib/i18n/config";
import { createLocaleBackend, loadLocale } from "./lib/i18n/load-locale";
import { warmIntlForForecasts } from "./lib/i18n/warm-intl";
import { reloadOnPreloadError } from "./lib/pwa/build-update";
import { watchInstallability } from "./lib/pwa/pwa-state";
import { documentRequestId, DocumentRequestIdContext } from "./lib/request-id";

async function hydrate() {
  // Both can happen before React is ready: the install prompt fires early, a lazy chunk can fail early.
  watchInstallability();
  // The locale loader falls back to English by itself (load-locale.ts).
  reloadOnPreloadError(/\/assets\/locale-[a-z]{2}-[A-Z]{2}-/);
  // The server wrote the page in this locale; load its texts before hydrating so the
  // first client render matches the server's HTML.
  const localeLoad = loadLocale(document.documentElement.lang);
  // Each step below takes a few ms on a phone; in one task with the modules' evaluation they would block input as one
  // long task. Hydration itself is sliced by React (startTransition).
  await yieldToMain();
  const graphqlData = installPageGraphQL();
  const graphql = getBrowserGraphQL();
  warmIntlForForecasts(document.documentElement.lang);
  const { locale, resources } = await localeLoad;
  await yieldToMain();
  await i18next
    .use(initReactI18next)
    .use(createLocaleBackend())
    .init({
      ...i18nextOptions,
      lng: locale,
      resources: { [locale]: resources },
      partialBundledLanguages: true,
    });

  await yieldToMain();
  startTransition(() => {
    hydrateRoot(
      document,
      <GraphQLClientSourceContext.Provider value={graphql.clientFor}>
        <GraphQLDataContext.Provider value={graphqlData}>
          <I18nextProvider i18n={i18next}>
            <DocumentRequestIdContext.Provider value={documentRequestId()}>
              <StrictMode>
                <HydratedRouter />
              </StrictMode>
            </DocumentRequestIdContext.Provider>
          </I18nextProvider>
        </GraphQLDataContext.Provider>
      </GraphQLClientSourceContext.Provider>,
    );
  });
}

void hydrate();
