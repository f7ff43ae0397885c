import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import { useNow, type RootClock } from "~/lib/display-settings";

function relativeAge(locale: string, from: number, now: number): string {
  const minutes = Math.round((from - now) / 60_000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  if (Math.abs(minutes) < 60) return format.format(minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 48) return format.format(hours, "hour");
  return format.format(Math.round(hours / 24), "day");
}

/** Says plainly that the app is offline and how old what it shows is (the page's render time). */
export function OfflineBanner() {
  const { t, i18n } = useTranslation();
  const root = useRouteLoaderData("root") as RootClock | undefined;
  const now = useNow();
  const age = relativeAge(i18n.language, root?.renderedAt ?? now, now);
  return (
    <div role="status" data-testid="offline-banner" className="border-b border-warning bg-warning/15 px-4 py-2 text-center text-sm">
      {t("pwa.offlineBanner", { age })}
    </div>
  );
}
