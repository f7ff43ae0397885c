import { startTransition, useContext, useEffect, useMemo, useState } from "react";
import { getI18n, I18nContext } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { useQuery } from "urql";
import { VIEWER_QUERY } from "./graphql/documents";
import type { ViewerQuery } from "./graphql/documents.generated";
import { regionalDefaults } from "../shared/regional-defaults";
import { formatWeekdayClock, type UnitSettings } from "../shared/units";

type ViewerSettings = NonNullable<ViewerQuery["me"]>["settings"];

/** `timeZone`: the user's; for a visitor, UTC (the server and the browser must write the same text). */
export type DisplaySettings = UnitSettings & { hour12: boolean; timeZone: string };

/**
 * What a visitor sees before choosing: the conventions of the browser's region ("en-GB":
 * °C and mph), or of the page's language when the browser names none (the API's defaults too).
 */
export function defaultDisplaySettings(locale: string, region?: string): Omit<ViewerSettings, "id" | "timeZone"> {
  return regionalDefaults(region ?? locale.split("-")[1] ?? "US");
}

/** Units, clock and locale for formatting: the signed-in user's settings, or the region's conventions. */
export function useDisplaySettings(): DisplaySettings {
  // The language only: its callers translate with their own `t` (and re-render on a change
  // of language with it), and a page calls this once per card.
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
  const [viewer] = useQuery({ query: VIEWER_QUERY });
  const root = useRouteLoaderData("root") as { region?: string } | undefined;
  const locale = i18n.language;
  const settings = viewer.data?.me?.settings ?? { ...defaultDisplaySettings(locale, root?.region), timeZone: null };
  const { hour12, temperatureUnit, windSpeedUnit, precipitationUnit } = settings;
  const timeZone = settings.timeZone ?? "UTC";
  // The same object while nothing in it changes: memoised parts that take it are not rendered again for nothing.
  return useMemo(
    () => ({ locale, hour12, temperatureUnit, windSpeedUnit, precipitationUnit, timeZone }),
    [locale, hour12, temperatureUnit, windSpeedUnit, precipitationUnit, timeZone],
  );
}

/** "Tue 6:00 PM": a moment of the coming days, in the reader's zone and clock. */
export const formatWhen = (iso: string, settings: DisplaySettings) =>
  formatWeekdayClock(new Date(iso), settings.locale, settings.timeZone, settings.hour12);

export type RootClock = { renderedAt: number };

/**
 * "Now" for texts like "Updated 5 min ago": the server's render time while hydrating (so
 * both sides write the same words), then the browser's clock, once a minute.
 */
export function useNow(): number {
  const root = useRouteLoaderData("root") as RootClock | undefined;
  return useMinuteClock(root?.renderedAt ?? Date.now());
}

function useMinuteClock(initial: number): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    // Every card reads the clock: a transition renders them in slices that yield to input, not in one long task
    // just after hydration (issue 35's blocking time).
    const tick = () => startTransition(() => setNow(Date.now()));
    tick();
    const timer = setInterval(tick, 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
