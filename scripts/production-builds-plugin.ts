import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

const require = createRequire(import.meta.url);
const reactRouterDist = path.join(path.dirname(require.resolve("react-router/package.json")), "dist/production");
const SYNC_EXTERNAL_STORE = "\0lean:use-sync-external-store-shim";

/** React Router's production build, for the browser's bundle and the server's. */
const REACT_ROUTER: Record<string, string> = {
  "react-router": path.join(reactRouterDist, "index.mjs"),
  "react-router/dom": path.join(reactRouterDist, "dom-export.mjs"),
};

/**
 * The packages the server runs that import React Router: bundled into the server build, so that they
 * and the app share its one production copy (two copies would be two router contexts).
 */
const SERVER_IMPORTERS_OF_REACT_ROUTER = ["react-router", "@react-router/express", "@react-router/node", "remix-i18next"];

/**
 * Production builds only: libraries whose packages give more code than runs.
 * - React Router's `exports` name its development build only (remix-run/react-router#12532, #14102): its
 *   dev-only warnings and checks run on every render and navigation. The production build beside it is the
 *   same code with them switched off; both bundles take it. The server bundles React Router and the packages
 *   that import it (a package left outside would get the development build from Node).
 * - react-i18next imports the `useSyncExternalStore` shim for React < 18; from 18 on the shim hands out React's
 *   own hook, so the browser's bundle gets that hook directly.
 */
export function productionBuilds(): Plugin {
  const client: Record<string, string> = { ...REACT_ROUTER, "use-sync-external-store/shim": SYNC_EXTERNAL_STORE };
  return {
    name: "weatherbot:production-builds",
    apply: "build",
    enforce: "pre",
    config: () => ({ ssr: { noExternal: SERVER_IMPORTERS_OF_REACT_ROUTER } }),
    resolveId(source) {
      return (this.environment.name === "client" ? client : REACT_ROUTER)[source] ?? null;
    },
    load(id) {
      return id === SYNC_EXTERNAL_STORE ? 'export { useSyncExternalStore } from "react";' : null;
    },
  };
}
