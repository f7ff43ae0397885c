// ESLint (flat config): typescript-eslint, React's rules of hooks, no import cycles, and the
// project's one-way boundaries (see "Project layout" in README.md).
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Code that runs in the browser (or is bundled for it): it reaches the API only over GraphQL. */
const CLIENT_CODE = ["app/components/**", "app/entry.client.tsx", "app/service-worker/**", "app/lib/**"];

/**
 * Route modules: bundled for the browser too, but their loaders, actions and middleware run on the server and use
 * app/server (React Router leaves those exports and the *.server modules only they import out of the client build).
 */
const ROUTE_MODULES = ["app/routes/**", "app/layouts/**", "app/root.tsx"];

/**
 * The boundaries: `target` files may not import `from` files (`except` is relative to `from`).
 * Exported for the test that proves them (tests/unit/lint-rules.test.ts).
 */
export const BOUNDARY_ZONES = [
  {
    target: "./app/api",
    from: "./app",
    except: ["./api", "./shared"],
    message: "app/api imports only app/api and app/shared: what the app and the API both need lives in app/shared.",
  },
  {
    target: "./app/api",
    from: ["./server.ts", "./scripts", "./tests", "./e2e"],
    message: "app/api imports only app/api and app/shared.",
  },
  {
    // A migration must keep its meaning when the domain changes: what it needs of the domain is a frozen copy in it.
    target: "./app/api/db/migrations.server.ts",
    from: ".",
    except: ["./app/api/db/column-types.server.ts", "./node_modules"],
    message: "Migrations are frozen: they import only kysely and the column types; copy what they need of the domain into them.",
  },
  {
    target: "./app/shared",
    from: ".",
    except: ["./app/shared", "./node_modules"],
    message: "app/shared is the leaf both sides import: it imports nothing of the project outside app/shared.",
  },
  ...CLIENT_CODE.map((target) => ({
    target,
    from: ["./app/api", "./app/server"],
    message: "Client code reaches the API over GraphQL only: it must not import app/api or app/server.",
  })),
  ...ROUTE_MODULES.map((target) => ({
    target,
    from: "./app/api",
    message: "Route modules reach the API over GraphQL only (through app/server on the server): they must not import app/api.",
  })),
];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "node_modules/**",
      ".react-router/**",
      "test-results/**",
      "playwright-report/**",
      "public/**",
      "data/**",
      // Written by `npm run codegen`; its input (the .graphql files) is what people edit.
      "**/*.generated.ts",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: {
        // Node and browser globals both occur (server, app, tests); TypeScript checks which is where.
        ...Object.fromEntries(
          [
            "window",
            "document",
            "navigator",
            "console",
            "process",
            "Buffer",
            "URL",
            "fetch",
            "setTimeout",
            "clearTimeout",
            "setInterval",
            "clearInterval",
            "globalThis",
            "self",
          ].map((name) => [name, "readonly"]),
        ),
      },
    },
    plugins: { "import-x": importX },
    settings: {
      // Without these, import-x reads only .js files and resolves no TypeScript import.
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/external-module-folders": ["node_modules", "node_modules/@types"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json", alwaysTryTypes: true })],
    },
    rules: {
      "import-x/no-restricted-paths": ["error", { zones: BOUNDARY_ZONES }],
      // TypeScript reports undefined names itself (and knows the DOM and Node globals).
      "no-undef": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  {
    // Prettier wraps code at 140 but leaves long strings and comments as written: the app's stay within it too.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/**/*.generated.ts"],
    rules: { "max-len": ["error", { code: 140, ignoreUrls: true }] },
  },
  {
    // React code only: the API's envelop plugins and Playwright's fixtures are also called `use…`.
    files: ["app/**/*.{ts,tsx}", "tests/unit/**/*.tsx"],
    ignores: ["app/api/**", "app/server/**", "app/service-worker/**"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    // CommonJS by necessity (GraphQL Code Generator loads local plugins with require).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { module: "writable", require: "readonly" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Playwright requires a fixture's first parameter to be destructured, even when it uses none.
    files: ["e2e/**/*.ts"],
    rules: { "no-empty-pattern": "off" },
  },
);
