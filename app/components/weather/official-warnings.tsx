import { lazy, Suspense, use, useId, useState } from "react";
import type { i18n as I18n } from "i18next";
import type { DisplaySettings } from "~/lib/display-settings";
import { warningTextsLoaded } from "~/lib/i18n/warning-texts";
import type { PlaceWarningsReport, WarningTexts } from "./official-warning-types";

// Only once a badge is pressed: the server renders the badges alone, closed.
const WarningDetails = lazy(() => import("./warning-details"));

/** What the details show besides one of the place's own warnings: those only known to be somewhere in its country. */
const ELSEWHERE = "elsewhere";

export type OfficialWarningsProps = {
  report: PlaceWarningsReport;
  /** The place's label (the badges' list is named after it). */
  place: string;
  /** False for a place saved by its coordinates: the API cannot know its country, so no service can be chosen. */
  countryKnown: boolean;
  /** The place's zone: a warning's times are the place's. */
  timeZone: string;
  settings: DisplaySettings;
  now: number;
  i18n: I18n;
};

/**
 * A place's official warnings on its card (decision 022): a badge per warning of its own ("Severe · Tornado
 * Watch", in the severity's colour) that opens its details, one for those elsewhere in its country, and a line
 * when there is none to show (none in force, no service covers the place, the service unavailable). Its texts
 * are out of the first load (warning-texts.ts); a card rendered in the browser shows nothing until they are here.
 */
export function OfficialWarnings(props: OfficialWarningsProps) {
  return (
    <Suspense fallback={null}>
      <Warnings {...props} />
    </Suspense>
  );
}

function Warnings({ report, place, countryKnown, timeZone, settings, now, i18n }: OfficialWarningsProps) {
  const [open, setOpen] = useState<string | null>(null);
  const detailsId = useId();
  const locale = i18n.language;
  const loading = warningTextsLoaded(i18n, locale);
  if (loading) use(loading);
  const t = i18n.getFixedT(locale, "warnings");
  // A page cached offline may outlive a warning: one whose hazard has ended is not shown.
  const inForce = report.items.filter((item) => item.expires === null || Date.parse(item.expires) > now);
  const own = inForce.filter((item) => item.match !== "COUNTRY");
  const elsewhere = inForce.filter((item) => item.match === "COUNTRY");
  const shown = open === ELSEWHERE ? elsewhere : own.filter((item) => item.id === open);
  const toggle = (key: string) => setOpen(open === key ? null : key);
  const status = statusLine(report, inForce.length, countryKnown, t);
  return (
    <div className="mb-4 flex flex-col gap-2" data-testid="official-warnings">
      {inForce.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={t("region", { place })}>
          {own.map((item) => (
            <li key={item.id}>
              <button
                type="button"
                className={`warning-badge warning-${item.severity}`}
                aria-expanded={open === item.id}
                aria-controls={detailsId}
                onClick={() => toggle(item.id)}
              >
                {/* One run of text: a flex item's trailing space would be dropped. The event is the service's words, in its language. */}
                <span>
                  {t(`severity.${item.severity}`)} · <span lang={item.language}>{item.event}</span>
                </span>
              </button>
            </li>
          ))}
          {elsewhere.length > 0 ? (
            <li>
              <button
                type="button"
                className="warning-badge warning-UNKNOWN"
                aria-expanded={open === ELSEWHERE}
                aria-controls={detailsId}
                onClick={() => toggle(ELSEWHERE)}
              >
                {t("elsewhere", { number: elsewhere.length })}
              </button>
            </li>
          ) : null}
        </ul>
      ) : null}
      <div id={detailsId}>
        {shown.length > 0 ? (
          <Suspense
            fallback={
              <p className="text-sm text-muted" role="status">
                {t("loading")}
              </p>
            }
          >
            <WarningDetails warnings={shown} elsewhere={open === ELSEWHERE} timeZone={timeZone} settings={settings} t={t} />
          </Suspense>
        ) : null}
      </div>
      {status ? (
        <p className="text-xs text-muted" data-testid="warnings-status">
          {status}
        </p>
      ) : null}
    </div>
  );
}

/** The line a card shows when it has no warning of its own to show, or when what it shows may be out of date. */
function statusLine(report: PlaceWarningsReport, inForce: number, countryKnown: boolean, t: WarningTexts): string | null {
  const service = report.service ?? "";
  switch (report.coverage) {
    case "NOT_COVERED":
      return t(countryKnown ? "notCovered" : "countryUnknown");
    case "UNAVAILABLE":
      return t("unavailable", { service });
    case "COVERED":
      if (report.stale) return t("stale", { service });
      return inForce === 0 ? t("none", { service }) : null;
  }
}
