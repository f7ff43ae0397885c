import { createContext } from "react-router";

/**
 * The client chunks a lazily imported module needs (its own and every chunk it imports) that the
 * page of a route (its id) does not name already, by the module's path from the project root, as
 * URLs; none where the server does not know its build (Vite's dev server). Set by
 * app/server/app.server.ts from the client build's manifest, so a page that renders a lazy module
 * on the server can name its chunks for the browser to fetch beside the entry (modulepreload)
 * rather than after hydration asks for them.
 */
export type LazyChunks = (modulePath: string, routeId: string) => readonly string[];

export const lazyChunksContext = createContext<LazyChunks>(() => []);

/** The signed-in home's dashboard (app/components/home/dashboard.tsx), lazy for visitors. */
export const DASHBOARD_MODULE = "app/components/home/dashboard.tsx";

/**
 * What a signed-in home renders on the server from lazy modules: the dashboard, each card's air
 * line and the line's texts, and the official warnings' texts, in the page's language. Named in the page,
 * they hydrate with it.
 */
export const signedInHomeModules = (locale: string) => [
  DASHBOARD_MODULE,
  "app/components/weather/air-quality-line.tsx",
  `locales/${locale}/air.json`,
  `locales/${locale}/warnings.json`,
];
