import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { useNavigation } from "react-router";
import { LOADING_BAR, useNavigationProgress } from "~/lib/navigation/progress";

/** The bar itself: its own component, so a page with no navigation under way asks for no texts. */
function ProgressBar({ progress }: { progress: number }) {
  const { t } = usePageTranslation();
  return (
    <div
      role="progressbar"
      aria-label={t("loading.label")}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(progress)}
      data-testid="navigation-progress"
      className="fixed inset-x-0 top-0 z-[60] origin-left bg-primary transition-[width] duration-100 ease-out"
      style={{ height: LOADING_BAR.heightPx, width: `${progress}%` }}
    />
  );
}

/** The thin bar at the top of the page while a navigation takes longer than the throttle. */
export function NavigationProgress() {
  const navigation = useNavigation();
  const { visible, progress } = useNavigationProgress(navigation.state !== "idle");
  return visible ? <ProgressBar progress={progress} /> : null;
}
