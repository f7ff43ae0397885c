import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // BUILD_DIR (default "build"): a second version can be built beside the first (update tests).
  buildDirectory: process.env.BUILD_DIR ?? "build",
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
  // Offline client navigation (PWA issue) needs the whole route manifest up front:
  // lazy discovery would fetch /__manifest, which fails without a network.
  routeDiscovery: { mode: "initial" },
} satisfies Config;
