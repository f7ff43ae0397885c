import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { productionBuilds } from "./scripts/production-builds-plugin";
import { offlinePage } from "./scripts/offline-page-plugin";
import { WEB_MANIFEST } from "./app/lib/pwa/web-manifest";

// One id for the client and the server build of one `npm run build`: React Router runs
// both builds in this process, so the first evaluation fixes it for the second.
process.env.BUILD_ID ||=
  new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, "")
    .slice(0, 14) +
  "-" +
  Math.random().toString(36).slice(2, 8);

const root = import.meta.dirname;
const clientDir = path.join(process.env.BUILD_DIR ?? "build", "client");

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    tailwindcss(),
    reactRouter(),
    productionBuilds(),
    offlinePage(root),
    VitePWA({
      // There is no index.html (React Router renders pages): the app registers the worker
      // itself (app/lib/pwa) and the worker is our own (app/service-worker/sw.ts).
      strategies: "injectManifest",
      srcDir: "app/service-worker",
      filename: "sw.ts",
      registerType: "prompt",
      injectRegister: false,
      outDir: clientDir,
      manifest: { ...WEB_MANIFEST, icons: [...WEB_MANIFEST.icons] },
      injectManifest: {
        globDirectory: clientDir,
        globPatterns: ["assets/**/*.{js,css,svg}", "icons/*.png", "favicon.svg", "offline.html"],
        globIgnores: ["assets/analytics-posthog-*.js"],
      },
      devOptions: { enabled: false },
    }),
  ],
  resolve: {
    alias: { "~": path.resolve(root, "app") },
  },
  define: {
    __BUILD_ID__: JSON.stringify(process.env.BUILD_ID),
  },
  environments: {
    // The server build's entry is the process (server.ts), which imports the app (app/server/app.server.ts),
    // which imports React Router's build: one bundle, build/server/index.js, for `npm start`.
    ssr: { build: { rollupOptions: { input: "./server.ts" } } },
  },
  build: {
    // Kept in build/client/.vite (not served): the server names a lazy module's chunks from it (app/server/lazy-chunks.server.ts).
    manifest: true,
    rollupOptions: isSsrBuild
      ? undefined
      : {
          output: {
            // Each locale is its own small chunk, loaded only when that language is used.
            manualChunks(id: string) {
              // Named so the worker's precache can leave it out: it is large and loads only with analytics on.
              if (id.includes("/node_modules/posthog-js/")) return "analytics-posthog";
              const match = /\/locales\/([a-z]{2}-[A-Z]{2})\//.exec(id);
              // The bot's texts apart: only the inbox loads them (app/lib/i18n/bot-texts.ts).
              if (match && id.endsWith("/bot.json")) return `locale-${match[1]}-bot`;
              // The air-quality line's texts apart: its lazy chunk loads them (app/lib/i18n/air-texts.ts).
              if (match && id.endsWith("/air.json")) return `locale-${match[1]}-air`;
              // The official warnings' texts apart: a saved place's card loads them (app/lib/i18n/warning-texts.ts).
              if (match && id.endsWith("/warnings.json")) return `locale-${match[1]}-warnings`;
              return match ? `locale-${match[1]}` : undefined;
            },
          },
        },
  },
}));
