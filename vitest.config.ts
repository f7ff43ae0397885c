import path from "node:path";
import { defineConfig } from "vitest/config";

// Vitest cannot reuse the React Router Vite plugin ("can't detect preamble"), so tests
// get their own config with the same alias and defines.
export default defineConfig({
  resolve: {
    alias: { "~": path.resolve(import.meta.dirname, "app") },
  },
  define: {
    __BUILD_ID__: JSON.stringify("test-build"),
  },
  test: {
    include: ["tests/**/*.test.{ts,tsx}"],
    setupFiles: ["tests/support/setup.ts"],
    environment: "node",
    restoreMocks: true,
  },
});
