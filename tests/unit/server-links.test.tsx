import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  Link as RouterLink,
  NavLink as RouterNavLink,
  StaticRouterProvider,
  type LinkProps,
  type NavLinkProps,
} from "react-router";
import { describe, expect, it } from "vitest";
import { plainHref, ServerLink, ServerNavLink } from "~/lib/navigation/links";

/** What a server render at `url` writes for `element` (in a route, under the root basename). */
async function rendered(url: string, element: ReactNode): Promise<string> {
  const handler = createStaticHandler([{ path: "*", Component: () => element }]);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error("no page");
  return renderToString(
    <StaticRouterProvider router={createStaticRouter(handler.dataRoutes, context)} context={context} hydrate={false} />,
  );
}

/** Data attributes are attributes of a link too (JSX allows them; an object typed LinkProps does not say so). */
type WithData<P> = P & { [data: `data-${string}`]: string };

const LINKS: WithData<LinkProps>[] = [
  { to: "/settings?section=account", className: "link", children: "Account" },
  { to: "/#inbox-heading", "aria-label": "3 unread", "data-testid": "unread-badge", children: "3" },
  { to: "/?place=0b6e&day=2026-11-25", className: "link", target: "_blank", discover: "none", replace: true, children: "Today" },
  { to: "/", className: "button-secondary", preventScrollReset: true, onClick: () => {}, children: "Back" },
  // Not plain: React Router's own Link renders them.
  { to: "settings", children: "Relative" },
  { to: { search: "?section=alerts" }, replace: true, className: "link", children: "Search only" },
  { to: "/settings/../", children: "Dots" },
  { to: "/settings", prefetch: "render", children: "Prefetched" },
];

const NAV_LINKS: NavLinkProps[] = [
  { to: "/", end: true, className: ({ isActive }) => `nav-link ${isActive ? "nav-link-active" : ""}`, children: "Home" },
  { to: "/", className: "flex font-semibold", children: "Weatherbot" },
  { to: "/settings", className: ({ isActive }) => (isActive ? "on" : "off"), children: "Settings" },
  {
    to: "/settings",
    "aria-current": "true",
    style: ({ isActive }) => ({ fontWeight: isActive ? 700 : 400 }),
    children: ({ isActive }) => (isActive ? "Here" : "There"),
  },
  { to: "/SETTINGS", caseSensitive: true, children: "Case" },
  { to: "/settings/", children: "Slash" },
  { to: "settings", children: "Relative" },
];

describe("the server render's links", () => {
  it("write the <a> React Router's Link writes, plain or not", async () => {
    for (const props of LINKS) {
      expect(await rendered("/settings?section=alerts", <ServerLink {...props} />)).toBe(
        await rendered("/settings?section=alerts", <RouterLink {...props} />),
      );
    }
  });

  it("write the <a> React Router's NavLink writes, active and not, wherever the page is", async () => {
    for (const url of ["/", "/settings", "/settings?section=account", "/settings/", "/Settings", "/settingsx", "/?place=1"]) {
      for (const props of NAV_LINKS) {
        expect(await rendered(url, <ServerNavLink {...props} />), `${String(props.to)} at ${url}`).toBe(
          await rendered(url, <RouterNavLink {...props} />),
        );
      }
    }
  });

  it("take a plain path from the root as it is, and leave every other link to React Router", () => {
    expect(plainHref("/settings?section=account", "/", {})).toBe("/settings?section=account");
    expect(plainHref("/#inbox-heading", "/", { prefetch: "none" })).toBe("/#inbox-heading");
    expect(plainHref("/", "/", {})).toBe("/");
    for (const to of ["settings", "./settings", "/settings/../x", "//evil.example/", "/a//b", "https://example.com/"])
      expect(plainHref(to, "/", {})).toBeNull();
    expect(plainHref({ pathname: "/settings" }, "/", {})).toBeNull();
    expect(plainHref("/settings", "/app", {})).toBeNull();
    expect(plainHref("/settings", "/", { prefetch: "intent" })).toBeNull();
    expect(plainHref("/settings", "/", { relative: "path" })).toBeNull();
  });
});
