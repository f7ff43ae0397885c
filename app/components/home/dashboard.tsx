import { Suspense, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { useQuery } from "urql";
import { lazyHydrated } from "~/components/hydrate-later";
import { lazyServerRendered, onPage } from "~/lib/hydration-modules";
import { InboxList } from "~/components/home/inbox-list";
import { PlaceList } from "~/components/home/place-list";
import { dayDetailTarget } from "~/lib/day-detail-link";
import { INBOX_QUERY, inboxVariables, PLACES_QUERY, VIEWER_QUERY } from "~/lib/graphql/documents";
import { PLACE_WARNINGS_QUERY } from "~/lib/graphql/later-documents";

// Not the first screen's: hydrated once the browser is idle or touched (decision 029).
const StarterRulesCallout = lazyHydrated(() =>
  import("~/components/home/starter-rules-callout").then((module) => module.StarterRulesCallout),
);
// Only for a day's address: not part of the first load of `/` (the server renders it whole).
const DayDetail = lazyServerRendered(
  () => import("~/components/weather/day-detail").then((module) => ({ default: module.DayDetail })),
  () => onPage("day-detail"),
);

/** A signed-in user's home: their places (and a day's detail when the address names one), starter rules and inbox. */
export default function Dashboard() {
  const { t } = useTranslation();
  const [places] = useQuery({ query: PLACES_QUERY });
  // Apart from the places: its answer holds for minutes, theirs for longer (later-documents.graphql).
  const [warnings] = useQuery({ query: PLACE_WARNINGS_QUERY });
  const warningsData = warnings.data?.me?.places;
  const warningsByPlace = useMemo(() => new Map(warningsData?.map((place) => [place.id, place.warnings])), [warningsData]);
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
        <PlaceList places={places.data?.me?.places ?? []} warnings={warningsByPlace} />
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        <StarterRulesCallout />
        <InboxList firstPage={inbox.data?.messages.edges ?? []} unreadCount={viewer.data?.me?.unreadCount ?? 0} />
      </div>
    </div>
  );
}
