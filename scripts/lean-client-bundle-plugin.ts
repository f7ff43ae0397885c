import { createRequire } from "node:module";
import path from "node:path";
import type { Plugin } from "vite";

const require = createRequire(import.meta.url);
const reactRouterDist = path.join(path.dirname(require.resolve("react-router/package.json")), "dist/production");
const SYNC_EXTERNAL_STORE = "\0lean:use-sync-external-store-shim";

/**
 * Production client builds only: libraries whose packages give the browser more code than it runs.
 * - React Router's `exports` name its development build only; the production build beside it is the same
 *   code with its dev-only warnings switched off (so they drop out of the bundle).
 * - react-i18next imports the `useSyncExternalStore` shim for React < 18; from 18 on the shim hands out React's
 *   own hook, so this serves that hook directly.
 * The server build keeps the packages as they are.
 */
export function leanClientBundle(): Plugin {
  const replacements: Record<string, string> = {
    "react-router": path.join(reactRouterDist, "index.mjs"),
    "react-router/dom": path.join(reactRouterDist, "dom-export.mjs"),
    "use-sync-external-store/shim": SYNC_EXTERNAL_STORE,
  };
  return {
    name: "weatherbot:lean-client-bundle",
    apply: "build",
    enforce: "pre",
    resolveId(source) {
      if (this.environment.name !== "client") return null;
      return replacements[source] ?? null;
    },
    load(id) {
      return id === SYNC_EXTERNAL_STORE ? 'export { useSyncExternalStore } from "react";' : null;
    },
  };
}
