import type { DisplaySettings } from "~/lib/display-settings";
import { hourCycle } from "~/shared/units";
import type { WarningItem, WarningTexts } from "./official-warning-types";

/** "Wed, Jan 15, 9:00 AM – 3:00 PM EST": a warning's onset and end in the place's zone, on the reader's clock. */
function whenText(warning: WarningItem, timeZone: string, settings: DisplaySettings, t: WarningTexts): string | null {
  const format = new Intl.DateTimeFormat(settings.locale, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "numeric",
    minute: "2-digit",
    hourCycle: hourCycle(settings.hour12),
    timeZone,
    timeZoneName: "short",
  });
  const onset = warning.onset ? new Date(warning.onset) : null;
  const end = warning.expires ? new Date(warning.expires) : null;
  if (onset && end) return format.formatRange(onset, end);
  if (onset) return t("from", { time: format.format(onset) });
  if (end) return t("until", { time: format.format(end) });
  return null;
}

/** A service's text as paragraphs: blank lines part them; the NWS's line breaks at 69 columns do not. */
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.replace(/\s*\n\s*/g, " ").trim())
    .filter(Boolean);

/**
 * The details of the warnings a badge opened: headline, how severe, urgent and certain, the area, when (in the
 * place's zone), what to do, the service's full text, and the service credited. The service's words carry the
 * language it wrote them in. Loaded once a badge is first pressed (official-warnings.tsx).
 */
export default function WarningDetails({
  warnings,
  elsewhere,
  timeZone,
  settings,
  t,
}: {
  warnings: WarningItem[];
  /** Warnings only known to be somewhere in the place's country. */
  elsewhere: boolean;
  timeZone: string;
  settings: DisplaySettings;
  t: WarningTexts;
}) {
  return (
    <div className="flex flex-col gap-3" data-testid="warning-details">
      {warnings.map((warning) => {
        const when = whenText(warning, timeZone, settings, t);
        return (
          <div key={warning.id} className="rounded-lg border border-default bg-muted p-3 text-sm">
            <h4 className="font-semibold" lang={warning.language}>
              {warning.headline ?? warning.event}
            </h4>
            <p className="text-muted">
              {t(`severity.${warning.severity}`)} · {t(`urgency.${warning.urgency}`)} · {t(`certainty.${warning.certainty}`)}
            </p>
            <dl className="mt-2 grid grid-cols-[minmax(0,1fr)] gap-x-3 gap-y-1 sm:grid-cols-[auto_minmax(0,1fr)]">
              <dt className="text-muted">{t(elsewhere ? "areaElsewhere" : "area")}</dt>
              <dd lang={warning.language}>{warning.area}</dd>
              {when ? (
                <>
                  <dt className="text-muted">{t("when")}</dt>
                  <dd data-testid="warning-when">{when}</dd>
                </>
              ) : null}
              {warning.instruction ? (
                <>
                  <dt className="text-muted">{t("instruction")}</dt>
                  <dd lang={warning.language}>{warning.instruction}</dd>
                </>
              ) : null}
            </dl>
            {warning.description ? (
              <details className="mt-2">
                <summary className="cursor-pointer rounded font-medium focus-visible:outline-2 focus-visible:outline-focus">
                  {t("description")}
                </summary>
                <div className="mt-1 flex flex-col gap-2 break-words" lang={warning.language}>
                  {paragraphs(warning.description).map((paragraph, index) => (
                    <p key={index}>{paragraph}</p>
                  ))}
                </div>
              </details>
            ) : null}
            <p className="mt-2 text-xs text-muted">{t("issuedBy", { service: warning.service })}</p>
          </div>
        );
      })}
    </div>
  );
}
