import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { lazy, Suspense } from "react";
import { Link, useSearchParams } from "react-router";
import { useQuery } from "urql";
import type { Route } from "./+types/home";
import { InboxList, inboxVariables } from "~/components/home/inbox-list";
import { PlaceList } from "~/components/home/place-list";
import { StarterRulesCallout } from "~/components/home/starter-rules-callout";
import { VisitorLookup } from "~/components/home/visitor-lookup";
import { clientLoadQuery } from "~/lib/graphql/browser-load";
import { dayDetailTarget } from "~/lib/day-detail-link";
import { ALERT_RULES_QUERY, INBOX_QUERY, PLACES_QUERY, VIEWER_QUERY } from "~/lib/graphql/documents";
import { loadQuery } from "~/lib/graphql/request-client.server";
import type { Load } from "~/lib/graphql/route-load";
import { getI18n } from "~/lib/i18n/middleware.server";

// Only for a day's address: not part of the first load of `/` (the server renders it whole).
const DayDetail = lazy(() => import("~/components/weather/day-detail").then((module) => ({ default: module.DayDetail })));

/** What the page shows, fetched once for its first render (server) or into the cache (browser). */
async function loadHome(load: Load, url: string) {
  const { me } = await load(VIEWER_QUERY, {});
  if (!me) return;
  const day = dayDetailTarget(new URL(url).searchParams);
  await Promise.all([
    load(PLACES_QUERY, {}),
    load(INBOX_QUERY, inboxVariables()),
    load(ALERT_RULES_QUERY, {}),
    // A day's detail is not part of the first load of `/`: its document comes with it.
    day
      ? import("~/lib/graphql/later-documents").then(({ PLACE_DAY_QUERY }) => load(PLACE_DAY_QUERY, { id: day.placeId, date: day.date }))
      : null,
  ]);
}

export async function loader({ context, request }: Route.LoaderArgs) {
  await loadHome((query, variables) => loadQuery(context, query, variables), request.url);
  const { t } = getI18n(context);
  return { title: `${t("home.title")} · ${t("app.name")}` };
}

export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  await loadHome(clientLoadQuery, request.url);
  return { title: `${i18next.t("home.title")} · ${i18next.t("app.name")}` };
}

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: loaderData.title }] : []);

function Visitor() {
  const { t } = useTranslation();
  return (
    <>
      <p className="mt-3 max-w-2xl text-lg text-muted">{t("home.intro")}</p>
      <p className="mt-6">
        {t("home.signUpInvite")}{" "}
        <Link to="/settings?section=account" className="link">
          {t("home.signUpLink")}
        </Link>
      </p>
      <VisitorLookup />
    </>
  );
}

function Dashboard() {
  const { t } = useTranslation();
  const [places] = useQuery({ query: PLACES_QUERY });
  const [inbox] = useQuery({ query: INBOX_QUERY, variables: inboxVariables() });
  const [viewer] = useQuery({ query: VIEWER_QUERY });
  const [search] = useSearchParams();
  const day = dayDetailTarget(search);
  return (
    <div className="mt-8 grid grid-cols-[minmax(0,1fr)] items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="flex min-w-0 flex-col gap-8">
        {day ? (
          <Suspense fallback={<div className="card h-96 animate-pulse" role="status" aria-label={t("loading.label")} />}>
            <DayDetail key={`${day.placeId}/${day.date}`} target={day} />
          </Suspense>
        ) : null}
        <PlaceList places={places.data?.me?.places ?? []} />
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        <StarterRulesCallout />
        <InboxList firstPage={inbox.data?.messages.edges ?? []} unreadCount={viewer.data?.me?.unreadCount ?? 0} />
      </div>
    </div>
  );
}

export default function Home() {
  const { t } = useTranslation();
  const [viewer] = useQuery({ query: VIEWER_QUERY });
  return (
    <section>
      <h1 className="text-3xl font-bold tracking-tight">{t("home.title")}</h1>
      {/* Someone signed in knows what the bot does: on a phone, their weather comes first. */}
      {viewer.data?.me ? <Dashboard /> : <Visitor />}
    </section>
  );
}
