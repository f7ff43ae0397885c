import { createRequire } from "node:module";
import path from "node:path";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

// Vitest cannot reuse the React Router Vite plugin ("can't detect preamble"), so tests
// get their own config with the same alias and defines.
export default defineConfig({
  resolve: {
    alias: [
      { find: "~", replacement: path.resolve(import.meta.dirname, "app") },
      // One graphql for everyone: Node loads it as CommonJS for graphql-yoga, so the
      // app's own imports must not get the ESM copy ("from another module or realm").
      { find: /^graphql$/, replacement: require.resolve("graphql") },
    ],
  },
  define: {
    __BUILD_ID__: JSON.stringify("test-build"),
  },
  test: {
    setupFiles: ["tests/support/setup.ts"],
    environment: "node",
    restoreMocks: true,
    // Integration tests hash real passwords (scrypt at OWASP cost, ~0.2 s each, several times
    // that on a busy 2-core machine): a bound for states awaited, not a wait.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Unit tests once; integration tests once per database. `extends: true` gives each project the settings above.
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.{ts,tsx}"] } },
      {
        extends: true,
        test: {
          name: "integration-sqlite",
          include: ["tests/integration/**/*.test.{ts,tsx}"],
          // PostgreSQL-only tests (a server restart, ...) run in the PostgreSQL project alone.
          exclude: ["**/node_modules/**", "tests/integration/postgres/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration-postgres",
          include: ["tests/integration/**/*.test.{ts,tsx}"],
          // Starts a PostgreSQL server for the run (or uses TEST_POSTGRES_ADMIN_URL's) and hands it to the tests.
          globalSetup: ["tests/support/postgres-global-setup.ts"],
        },
      },
    ],
  },
});
