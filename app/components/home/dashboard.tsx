import { lazy, Suspense, useMemo } from "react";
import { useSearchParams } from "react-router";
import { useQuery } from "urql";
import { InboxList } from "~/components/home/inbox-list";
import { PlaceList } from "~/components/home/place-list";
import { PlaceSwitcher } from "~/components/home/place-switcher";
import { StarterRulesCallout } from "~/components/home/starter-rules-callout";
import type { CardTranslation } from "~/components/weather/forecast-card";
import { dayDetailTarget } from "~/lib/day-detail-link";
import { useDisplaySettings, useNow } from "~/lib/display-settings";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { ALERT_RULES_QUERY, INBOX_QUERY, inboxVariables, PLACES_QUERY } from "~/lib/graphql/signed-in-documents";
import { PLACE_WARNINGS_QUERY } from "~/lib/graphql/later-documents";
import { openPlaceId } from "~/lib/open-place";
import { DASHBOARD_PART, usePartHydrated } from "~/lib/page-hydration";

// Only for a day's address: not part of the first load of `/` (the server renders it whole).
const DayDetail = lazy(() => import("~/components/weather/day-detail").then((module) => ({ default: module.DayDetail })));

/**
 * A signed-in user's home: one place open (and a day's detail when the address names one); beside it (below it on
 * a phone) the switcher with every place, starter rules and the inbox. Its texts come from the route's one
 * `useTranslation`, handed down.
 */
export default function Dashboard({ translation }: { translation: CardTranslation }) {
  const { t } = translation;
  usePartHydrated(DASHBOARD_PART);
  const [places] = useQuery({ query: PLACES_QUERY });
  // Apart from the places: its answer holds for minutes, theirs for longer (later-documents.graphql).
  const [warnings] = useQuery({ query: PLACE_WARNINGS_QUERY });
  const warningsData = warnings.data?.me?.places;
  const warningsByPlace = useMemo(() => new Map(warningsData?.map((place) => [place.id, place.warnings])), [warningsData]);
  const [rules] = useQuery({ query: ALERT_RULES_QUERY });
  const rulesData = rules.data?.alertRules;
  const alerting = useMemo(
    () => new Set(rulesData?.flatMap((rule) => (rule.state === "TRIGGERED" && rule.place ? [rule.place.id] : []))),
    [rulesData],
  );
  const [inbox] = useQuery({ query: INBOX_QUERY, variables: inboxVariables() });
  const [viewer] = useQuery({ query: VIEWER_QUERY });
  const [search] = useSearchParams();
  // Once for the page, not once per place.
  const settings = useDisplaySettings();
  const now = useNow();
  const day = dayDetailTarget(search);
  const list = places.data?.me?.places ?? [];
  const openId = openPlaceId(
    list.map((place) => place.id),
    search,
  );
  return (
    <div className="mt-8 grid grid-cols-[minmax(0,1fr)] items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="flex min-w-0 flex-col gap-8">
        {day ? (
          <Suspense fallback={<div className="card h-96 animate-pulse" role="status" aria-label={t("loading.label")} />}>
            <DayDetail key={`${day.placeId}/${day.date}`} target={day} />
          </Suspense>
        ) : null}
        <PlaceList places={list} openId={openId} warnings={warningsByPlace} settings={settings} now={now} translation={translation} />
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        {list.length > 0 ? (
          <PlaceSwitcher
            places={list}
            openId={openId}
            warnings={warningsByPlace}
            alerting={alerting}
            settings={settings}
            now={now}
            translation={translation}
          />
        ) : null}
        <StarterRulesCallout t={t} />
        <InboxList translation={translation} firstPage={inbox.data?.messages.edges ?? []} unreadCount={viewer.data?.me?.unreadCount ?? 0} />
      </div>
    </div>
  );
}
