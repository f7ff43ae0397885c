import type { Config } from "@react-router/dev/config";

/**
 * The bare baseline of the page benchmark (see scripts/bench/pages.ts): React Router's defaults, built beside the app's build.
 * Its server entry is React Router's default, which imports isbot: a devDependency for this alone (without it the
 * build runs `npm install isbot` in the project, rewriting package.json and node_modules).
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
