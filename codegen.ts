import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * `npm run codegen` writes every `*.generated.ts` from the schema in app/api/schema/*.graphql; a step of `npm test`
 * (scripts/codegen-check.mjs) fails when one of them is stale.
 */
const config: CodegenConfig = {
  // The areas in the order the schema lists their types (introspection, printed SDL).
  schema: ["scalars", "account", "places", "weather", "messages", "briefings", "alert-rules", "push"].map(
    (area) => `app/api/schema/${area}.graphql`,
  ),
  // Enum values stay in the order the SDL gives them: the UI lists them so.
  config: { sort: false },
  generates: {
    // The server's schema as code, read by app/api/schema/index.server.ts.
    "app/api/schema/schema-sdl.generated.ts": { plugins: ["./scripts/codegen/sdl-string-plugin.cjs"] },
  },
  hooks: { afterAllFileWrite: ["prettier --write"] },
};

export default config;
