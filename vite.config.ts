import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

// One id for the client and the server build of one `npm run build`: React Router runs
// both builds in this process, so the first evaluation fixes it for the second.
process.env.BUILD_ID ||= new Date().toISOString().replace(/[-:.TZ]/g, "").slice(0, 14) +
  "-" + Math.random().toString(36).slice(2, 8);

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [tailwindcss(), reactRouter()],
  resolve: {
    alias: { "~": path.resolve(import.meta.dirname, "app") },
  },
  define: {
    __BUILD_ID__: JSON.stringify(process.env.BUILD_ID),
  },
  build: {
    rollupOptions: isSsrBuild
      ? undefined
      : {
          output: {
            // Each locale is its own small chunk, loaded only when that language is used.
            manualChunks(id: string) {
              const match = /\/locales\/([a-z]{2}-[A-Z]{2})\//.exec(id);
              return match ? `locale-${match[1]}` : undefined;
            },
          },
        },
  },
}));
