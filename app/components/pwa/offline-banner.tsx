import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { useRouteLoaderData } from "react-router";
import { useNow, type RootClock } from "~/lib/display-settings";
import { formatRelativeAge } from "~/lib/relative-age";

/** Says plainly that the app is offline and how old what it shows is (the page's render time). */
export function OfflineBanner() {
  const { t, i18n } = usePageTranslation();
  const root = useRouteLoaderData("root") as RootClock | undefined;
  const now = useNow();
  const age = formatRelativeAge(i18n.language, root?.renderedAt ?? now, now);
  return (
    <div role="status" data-testid="offline-banner" className="border-b border-warning bg-warning/15 px-4 py-2 text-center text-sm">
      {t("pwa.offlineBanner", { age })}
    </div>
  );
}
