import type { SSRData } from "@urql/core";
import { describe, expect, it } from "vitest";
import { parseGraphQLData, serializeGraphQLData } from "~/lib/graphql/ssr-data";

const results: SSRData = {
  "123": { hasNext: false, data: JSON.stringify({ me: { id: "u1", email: "a@example.com", places: [{ label: 'Say "hi" </script>' }] } }) },
  "-45": { hasNext: false, data: JSON.stringify({ alertRules: [] }), extensions: JSON.stringify({ cost: 3 }) },
  "67": {
    hasNext: false,
    error: { graphQLErrors: [{ message: "Not signed in </script>", extensions: { code: "UNAUTHENTICATED" } }], networkError: undefined },
  },
};

describe("the page's GraphQL data", () => {
  it("comes back exactly as urql's ssr exchange keeps it", () => {
    const restored = parseGraphQLData(serializeGraphQLData(results));
    expect(restored).toEqual(JSON.parse(JSON.stringify(results)));
    expect(JSON.parse(restored["123"]!.data!)).toEqual(JSON.parse(results["123"]!.data!));
  });

  it("carries results as JSON, not as JSON text escaped a second time", () => {
    const json = serializeGraphQLData(results);
    expect(json).not.toMatch(/"(data|extensions)":"/);
    expect(json.length).toBeLessThan(JSON.stringify(results).length);
  });

  it("cannot close its <script> element early", () => {
    const json = serializeGraphQLData(results);
    expect(json).not.toContain("</script");
    expect(json).not.toContain("<");
  });
});
