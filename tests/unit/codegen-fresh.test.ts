import { describe, expect, it } from "vitest";
import { staleGeneratedFiles } from "../../scripts/codegen-check";

describe("generated files", () => {
  it("match the schema and the operations as they are now (run `npm run codegen` after editing a .graphql file)", async () => {
    expect(await staleGeneratedFiles()).toEqual([]);
  });
});
