import i18next, { type TFunction } from "i18next";
import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { lazy, Suspense, useMemo } from "react";
import { preloadModule } from "react-dom";
import { Link } from "react-router";
import { useQuery } from "urql";
import type { Route } from "./+types/home";
import { VisitorLookup } from "~/components/home/visitor-lookup";
import { clientLoadQuery } from "~/lib/graphql/browser-load";
import { dayDetailTarget } from "~/lib/day-detail-link";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { openPlaceId } from "~/lib/open-place";
import { loadQuery } from "~/server/graphql/request-client.server";
import type { Load } from "~/lib/graphql/route-load";
import { getI18n, getLocale } from "~/server/i18n/middleware.server";
import { lazyChunksContext, signedInHomeModules } from "~/lib/lazy-chunks-context";
import { useNonce } from "~/lib/nonce";
import { DASHBOARD_PART, useWaitForPart } from "~/lib/page-hydration";

/**
 * A signed-in user's places and inbox: not part of a visitor's first load. The server renders it
 * whole and names its chunks in the page (modulepreload), so a signed-in first load fetches them
 * beside the entry instead of after it (decision 018).
 */
const Dashboard = lazy(() => import("~/components/home/dashboard"));

/** What the page shows, fetched once for its first render (server) or into the cache (browser); whether someone is signed in. */
async function loadHome(load: Load, url: string): Promise<boolean> {
  // Not part of a visitor's first load (hydration runs no loader). Asked for beside the viewer query, so a navigation
  // to the home after signing in does not wait for one more round trip.
  const signedInDocuments = import("~/lib/graphql/signed-in-documents");
  // Its failure counts where it is awaited below; a visitor's page never awaits it.
  signedInDocuments.catch(() => undefined);
  const { me } = await load(VIEWER_QUERY, {});
  if (!me) return false;
  const { ALERT_RULES_QUERY, INBOX_QUERY, inboxVariables, OPEN_PLACE_QUERY, PLACES_QUERY } = await signedInDocuments;
  const search = new URL(url).searchParams;
  const day = dayDetailTarget(search);
  await Promise.all([
    // Every place's row, then the one place shown whole: opening another fetches its own (decision 027).
    load(PLACES_QUERY, {}).then(({ me: user }) => {
      const id = openPlaceId(user?.places.map((place) => place.id) ?? [], search);
      return id ? load(OPEN_PLACE_QUERY, { id }) : null;
    }),
    load(INBOX_QUERY, inboxVariables()),
    load(ALERT_RULES_QUERY, {}),
    // The cards' official warnings: not part of the first load of `/` either. A failure leaves the cards without
    // them (the API answers a service's failure itself, as UNAVAILABLE), never fails the page.
    import("~/lib/graphql/later-documents").then(({ PLACE_WARNINGS_QUERY }) => load(PLACE_WARNINGS_QUERY, {})).catch(() => null),
    // A day's detail is not part of the first load of `/`: its document comes with it.
    day
      ? import("~/lib/graphql/later-documents").then(({ PLACE_DAY_QUERY }) => load(PLACE_DAY_QUERY, { id: day.placeId, date: day.date }))
      : null,
  ]);
  return true;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const signedIn = await loadHome((query, variables) => loadQuery(context, query, variables), request.url);
  const { t } = getI18n(context);
  const language = getLocale(context);
  // The server renders the dashboard and the cards' air lines: hydration needs their chunks at once, so the page names them.
  const lazyChunks = context.get(lazyChunksContext);
  const modules = signedIn ? signedInHomeModules(language) : [];
  const renderedLazyChunks = [...new Set(modules.flatMap((module) => lazyChunks(module, "routes/home")))];
  return { title: `${t("home.title")} · ${t("app.name")}`, renderedLazyChunks };
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await loadHome(clientLoadQuery, request.url);
  return { title: `${i18next.t("home.title")} · ${i18next.t("app.name")}`, renderedLazyChunks: [] as readonly string[] };
}

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.title }] : []);

function Visitor({ t }: { t: TFunction }) {
  return (
    <>
      <p className="mt-3 max-w-2xl text-lg text-muted">{t("home.intro")}</p>
      <p className="mt-6">
        {t("home.signUpInvite")}{" "}
        <Link to="/settings?section=account" className="link">
          {t("home.signUpLink")}
        </Link>
      </p>
      <VisitorLookup t={t} />
    </>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const translation = usePageTranslation();
  const { t } = translation;
  const nonce = useNonce();
  // In the page's head, beside the entry's own modulepreloads (React hoists them): fetched while the entry loads.
  for (const href of loaderData?.renderedLazyChunks ?? []) preloadModule(href, { as: "script", nonce });
  const [viewer] = useQuery({ query: VIEWER_QUERY });
  const signedIn = Boolean(viewer.data?.me);
  // The server's dashboard hydrates in a pass of its own, in slices. The same element while the language stays: new
  // props reaching its boundary before then (Home re-renders when the viewer query first answers) would make React
  // hydrate it at once, in one long task, or drop its server HTML and render it again.
  const dashboard = useMemo(
    () => (
      <Suspense fallback={<div className="card mt-8 h-96 animate-pulse" role="status" aria-label={translation.t("loading.label")} />}>
        <Dashboard translation={translation} />
      </Suspense>
    ),
    [translation],
  );
  // Until it has, the page's data stands still (page-hydration.ts).
  useWaitForPart(DASHBOARD_PART, signedIn);
  return (
    <section>
      <h1 className="text-3xl font-bold tracking-tight">{t("home.title")}</h1>
      {/* Someone signed in knows what the bot does: on a phone, their weather comes first. */}
      {signedIn ? dashboard : <Visitor t={t} />}
    </section>
  );
}
