import type { TFunction } from "i18next";
import { usePageTranslation } from "~/lib/i18n/use-page-translation";
import { Link, NavLink, Outlet, type NavLinkProps } from "react-router";
import { useQuery } from "urql";
import type { Route } from "./+types/default";
import { ColorModeToggle } from "~/components/color-mode-toggle";
import { LazyErrorView } from "~/components/lazy-error-view";
import { CloudSunIcon, InfoIcon } from "~/components/icons";
import { OverlayHost } from "~/components/overlay-host";
import { Tooltip } from "~/components/ui/tooltip";
import { clientLoadQuery } from "~/lib/graphql/browser-load";
import { VIEWER_QUERY } from "~/lib/graphql/documents";
import { loadQuery } from "~/server/graphql/request-client.server";
import { openOverlay } from "~/lib/overlays/overlay-store";
import { useIntentPreload } from "~/lib/navigation/use-intent-preload";
import { usePrefetchAllowed } from "~/lib/pwa/prefetch-policy";
import { revalidateUnlessRefusedOffline } from "~/lib/pwa/offline-refusal";

// The header shows who is signed in and the unread count on every page.
export async function loader({ context }: Route.LoaderArgs) {
  await loadQuery(context, VIEWER_QUERY, {});
  return null;
}

export async function clientLoader() {
  await clientLoadQuery(VIEWER_QUERY, {});
  return null;
}

export const shouldRevalidate = revalidateUnlessRefusedOffline;

/** The unread badge: live, because new messages update the cached count. */
function UnreadBadge({ t }: { t: TFunction }) {
  const [viewer] = useQuery({ query: VIEWER_QUERY });
  const count = viewer.data?.me?.unreadCount;
  if (!count) return null;
  const label = t("inbox.unreadCount", { count });
  return (
    <Tooltip content={label}>
      {/* The pill is small; the link around it is a 44 px target for a finger. */}
      <Link
        to="/#inbox-heading"
        className="inline-flex size-11 items-center justify-center rounded-md focus-visible:outline-2 focus-visible:outline-focus"
        aria-label={label}
        data-testid="unread-badge"
      >
        <span className="badge">{count > 99 ? "99+" : count}</span>
      </Link>
    </Tooltip>
  );
}

/** A navigation link that preloads its route on intent (at most 4 modules at once), unless saving data. */
function PreloadNavLink({ to, preload, ...props }: NavLinkProps & { to: string; preload: boolean }) {
  return <NavLink to={to} {...props} {...useIntentPreload(to, preload)} />;
}

function Header() {
  const { t } = usePageTranslation();
  const preload = usePrefetchAllowed();
  const navClass = ({ isActive }: { isActive: boolean }) => `nav-link ${isActive ? "nav-link-active" : ""}`;
  return (
    <header className="sticky top-0 z-40 border-b border-default bg-default/90 backdrop-blur">
      {/* Narrow phones: tighter gaps, so the 44 px targets still fit in 360 px. */}
      <div className="mx-auto flex h-14 max-w-5xl items-center gap-1 px-4 sm:gap-2">
        <a href="#main" className="skip-link">
          {t("app.skipToContent")}
        </a>
        <NavLink
          to="/"
          className={
            "flex min-h-11 min-w-11 items-center justify-center gap-2 rounded-md font-semibold text-primary-strong " +
            "focus-visible:outline-2 focus-visible:outline-focus"
          }
        >
          <CloudSunIcon />
          <span className="sr-only sm:not-sr-only">{t("app.name")}</span>
        </NavLink>
        <nav aria-label={t("nav.label")} className="flex items-center gap-1">
          <PreloadNavLink to="/" end className={navClass} preload={preload}>
            {t("nav.home")}
          </PreloadNavLink>
          <PreloadNavLink to="/settings" className={navClass} preload={preload}>
            {t("nav.settings")}
          </PreloadNavLink>
        </nav>
        <div className="ml-auto flex items-center gap-1">
          <UnreadBadge t={t} />
          <Tooltip content={t("nav.about")}>
            <button type="button" className="icon-button" aria-label={t("nav.about")} onClick={() => openOverlay("about")}>
              <InfoIcon />
            </button>
          </Tooltip>
          <ColorModeToggle t={t} />
        </div>
      </div>
    </header>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <>
      <Header />
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 outline-none">
        {children}
      </main>
      <OverlayHost />
    </>
  );
}

/** The `default` layout: header with navigation, the page, and the overlay host. */
export default function DefaultLayout() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <Shell>
      <LazyErrorView error={error} />
    </Shell>
  );
}
