import { createElement, useContext, type ReactNode } from "react";
import {
  Link as RouterLink,
  NavLink as RouterNavLink,
  UNSAFE_NavigationContext as NavigationContext,
  useLocation,
  type LinkProps,
  type NavLinkProps,
} from "react-router";

/** A path from the root with nothing to resolve: no `.` or `..` segment, no empty one, no scheme or host. */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_~-]+(?:\/[A-Za-z0-9_~-]+)*)?(?:[?#][^\s]*)?$/;

/**
 * The `href` React Router's Link writes for `to` in a server render, when it is simply `to`: a plain path from the
 * root under the root basename, a Link with nothing but attributes. Null for every other Link (relative paths,
 * objects, prefetching, masks), which React Router's own Link then renders.
 */
export function plainHref(to: LinkProps["to"], basename: string, props: Pick<LinkProps, "prefetch" | "mask" | "relative">): string | null {
  if (typeof to !== "string" || basename !== "/" || !PLAIN_PATH.test(to)) return null;
  if ((props.prefetch ?? "none") !== "none" || props.mask !== undefined || props.relative === "path") return null;
  return to;
}

/** Props of React Router's Link that are no attribute of its `<a>` (or are written in their own place). */
const LINK_ONLY: ReadonlySet<string> = new Set([
  "to",
  "discover",
  "prefetch",
  "mask",
  "relative",
  "reloadDocument",
  "replace",
  "state",
  "preventScrollReset",
  "viewTransition",
  "defaultShouldRevalidate",
  "onClick",
  "target",
]);
/** And those of its NavLink. */
const NAV_LINK_ONLY: ReadonlySet<string> = new Set([
  ...LINK_ONLY,
  "aria-current",
  "caseSensitive",
  "className",
  "end",
  "style",
  "children",
]);

/**
 * The `<a>` React Router's Link writes: the props that are attributes, in their order, then `extra` (NavLink's), then
 * the link's own. Copied by name: an object rest (`{ to, ...rest }`) with a dozen names left out is V8's slow path, and
 * cost more than the rest of the link.
 */
function anchor(
  props: LinkProps | NavLinkProps,
  href: string,
  leftOut: ReadonlySet<string>,
  extra?: Record<string, unknown>,
  children?: ReactNode,
) {
  const attributes: Record<string, unknown> = {};
  const given = props as unknown as Record<string, unknown>;
  for (const name in given) if (!leftOut.has(name)) attributes[name] = given[name];
  if (extra) Object.assign(attributes, extra);
  attributes.href = href;
  attributes.target = props.target;
  attributes["data-discover"] = (props.discover ?? "render") === "render" ? "true" : undefined;
  return children === undefined ? createElement("a", attributes) : createElement("a", attributes, children);
}

/**
 * React Router's Link in the server render of a plain path (see plainHref): the same `<a>`, attribute for attribute,
 * without the hooks its browser side needs (a click handler, prefetching, the path resolved against the route).
 * A tenth of React Router's Link's cost (3.5 µs less per link), a dozen links a page.
 */
export function ServerLink(props: LinkProps) {
  const { basename } = useContext(NavigationContext);
  const href = plainHref(props.to, basename, props);
  return href === null ? <RouterLink {...props} /> : anchor(props, href, LINK_ONLY);
}

/** React Router's NavLink in the server render of a plain path: active by the same rule, the same `<a>`. */
export function ServerNavLink(props: NavLinkProps) {
  const { basename } = useContext(NavigationContext);
  const location = useLocation();
  const href = plainHref(props.to, basename, props);
  if (href === null) return <RouterNavLink {...props} />;
  const { "aria-current": ariaCurrent = "page", caseSensitive = false, className = "", end = false, style, children } = props;
  let toPathname = href.replace(/[?#].*$/, "") || "/";
  let locationPathname = location.pathname;
  if (!caseSensitive) {
    toPathname = toPathname.toLowerCase();
    locationPathname = locationPathname.toLowerCase();
  }
  const endSlash = toPathname !== "/" && toPathname.endsWith("/") ? toPathname.length - 1 : toPathname.length;
  const isActive =
    locationPathname === toPathname || (!end && locationPathname.startsWith(toPathname) && locationPathname.charAt(endSlash) === "/");
  // A server render has no navigation under way, and so no transition.
  const state = { isActive, isPending: false, isTransitioning: false };
  const extra = {
    "aria-current": isActive ? ariaCurrent : undefined,
    className: typeof className === "function" ? className(state) : [className, isActive ? "active" : null].filter(Boolean).join(" "),
    style: typeof style === "function" ? style(state) : style,
  };
  return anchor(props, href, NAV_LINK_ONLY, extra, typeof children === "function" ? (children(state) as ReactNode) : children);
}

/**
 * The app's links. In the browser (and in hydration) they are React Router's own; the server render, where a link
 * is only its `<a>`, writes the same `<a>` for plain paths without the hooks it would not use. Vite decides at build
 * time: the browser's bundle has no server link in it.
 */
export const Link = import.meta.env.SSR ? ServerLink : RouterLink;
export const NavLink = import.meta.env.SSR ? ServerNavLink : RouterNavLink;
export type { LinkProps, NavLinkProps };
