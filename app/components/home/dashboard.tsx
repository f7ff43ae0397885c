import { lazy, memo, Suspense, useDeferredValue, useMemo } from "react";
import { useSearchParams } from "react-router";
import { useQuery } from "urql";
import { InboxList } from "~/components/home/inbox-list";
import { PlaceList } from "~/components/home/place-list";
import { PlaceSwitcher } from "~/components/home/place-switcher";
import { StarterRulesCallout } from "~/components/home/starter-rules-callout";
import type { CardTranslation } from "~/components/weather/forecast-card";
import { dayDetailTarget } from "~/lib/day-detail-link";
import { type DisplaySettings, useDisplaySettings, useNow } from "~/lib/display-settings";
import { ALERT_RULES_QUERY, INBOX_QUERY, inboxVariables, OPEN_PLACE_QUERY, PLACES_QUERY, VIEWER_QUERY } from "~/lib/graphql/documents";
import { PLACE_WARNINGS_QUERY } from "~/lib/graphql/later-documents";
import type { InboxQuery, PlaceRowFieldsFragment as PlaceRow } from "~/lib/graphql/documents.generated";
import { openPlaceId } from "~/lib/open-place";

// Only for a day's address: not part of the first load of `/` (the server renders it whole).
const DayDetail = lazy(() => import("~/components/weather/day-detail").then((module) => ({ default: module.DayDetail })));

type MessageEdge = InboxQuery["messages"]["edges"][number];

const NO_PLACES: PlaceRow[] = [];
const NO_MESSAGES: MessageEdge[] = [];

// Memoised: a part's urgent render with its deferred (unchanged) data stops here (see Dashboard).
const StillPlaceList = memo(PlaceList);
const StillPlaceSwitcher = memo(PlaceSwitcher);
const StillInboxList = memo(InboxList);

type Column = { places: PlaceRow[]; openId: string | null; settings: DisplaySettings; now: number; translation: CardTranslation };

/** The cards' official warnings by place: its answer holds for minutes, the places' for longer (later-documents.graphql). */
function useWarningsByPlace() {
  const [warnings] = useQuery({ query: PLACE_WARNINGS_QUERY });
  const data = useDeferredValue(warnings.data?.me?.places);
  return useMemo(() => new Map(data?.map((place) => [place.id, place.warnings])), [data]);
}

/** The open place whole: the loader fetched it before this render (server, or the navigation that opened it). */
const OpenPlaceColumn = memo(function OpenPlaceColumn({ places, openId, settings, now, translation }: Column) {
  const [opened] = useQuery({ query: OPEN_PLACE_QUERY, variables: { id: openId ?? "" }, pause: !openId });
  const warnings = useWarningsByPlace();
  const open = useDeferredValue(opened.data?.place ?? undefined);
  return <StillPlaceList places={places} open={open} warnings={warnings} settings={settings} now={now} translation={translation} />;
});

const SwitcherColumn = memo(function SwitcherColumn({ places, openId, settings, now, translation }: Column) {
  const warnings = useWarningsByPlace();
  const [rules] = useQuery({ query: ALERT_RULES_QUERY });
  const rulesData = useDeferredValue(rules.data?.alertRules);
  const alerting = useMemo(
    () => new Set(rulesData?.flatMap((rule) => (rule.state === "TRIGGERED" && rule.place ? [rule.place.id] : []))),
    [rulesData],
  );
  return (
    <StillPlaceSwitcher
      places={places}
      openId={openId}
      warnings={warnings}
      alerting={alerting}
      settings={settings}
      now={now}
      translation={translation}
    />
  );
});

const Inbox = memo(function Inbox({ translation }: { translation: CardTranslation }) {
  const [inbox] = useQuery({ query: INBOX_QUERY, variables: inboxVariables() });
  const [viewer] = useQuery({ query: VIEWER_QUERY });
  const firstPage = useDeferredValue(inbox.data?.messages.edges) ?? NO_MESSAGES;
  const unreadCount = useDeferredValue(viewer.data?.me?.unreadCount) ?? 0;
  return <StillInboxList translation={translation} firstPage={firstPage} unreadCount={unreadCount} />;
});

/**
 * A signed-in user's home: one place open (and a day's detail when the address names one); beside it (below it on
 * a phone) the switcher with every place, starter rules and the inbox. Its texts come from the route's one
 * `useTranslation`, handed down. Each part reads its own queries: a first read from the cache (the server's results
 * written into graphcache) is the costliest step of hydrating a part, and React yields to input only between
 * components, so one component reading them all was one long task on a phone (issue 35's blocking time).
 */
export default memo(function Dashboard({ translation }: { translation: CardTranslation }) {
  const { t } = translation;
  const [places] = useQuery({ query: PLACES_QUERY });
  const [search] = useSearchParams();
  // Once for the page, not once per place.
  const settings = useDisplaySettings();
  const now = useNow();
  const day = dayDetailTarget(search);
  // Deferred: urql's first subscription after hydration hands each query the cache's answer again, new objects with
  // the same content; the parts below (memoised) take them in a transition, in slices that yield to input, not in the
  // one long task of an urgent render (issue 35's blocking time).
  const list = useDeferredValue(places.data?.me?.places ?? NO_PLACES);
  const openId = openPlaceId(
    list.map((place) => place.id),
    search,
  );
  const column = { places: list, openId, settings, now, translation };
  return (
    <div className="mt-8 grid grid-cols-[minmax(0,1fr)] items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <div className="flex min-w-0 flex-col gap-8">
        {day ? (
          <Suspense fallback={<div className="card h-96 animate-pulse" role="status" aria-label={t("loading.label")} />}>
            <DayDetail key={`${day.placeId}/${day.date}`} target={day} />
          </Suspense>
        ) : null}
        <OpenPlaceColumn {...column} />
      </div>
      <div className="flex min-w-0 flex-col gap-6">
        {list.length > 0 ? <SwitcherColumn {...column} /> : null}
        <StarterRulesCallout t={t} />
        <Inbox translation={translation} />
      </div>
    </div>
  );
});
