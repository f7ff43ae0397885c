import type { Config } from "@react-router/dev/config";

/**
 * The bare baseline of the page benchmark (see scripts/bench/pages.ts): React Router's defaults, built beside the app's build.
 * Its server entry (app/entry.server.tsx) is React Router's default node entry, copied: left to the default, the build
 * runs `npm install` in the project to add isbot to its dependencies (the app itself does not use isbot), rewriting
 * package.json and node_modules mid-bench. isbot is a devDependency for this file alone.
 */
export default {
  ssr: true,
  buildDirectory: "../../../build/bench-bare-page",
  // The app's flags (react-router.config.ts at the root): the same framework behaviour.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
