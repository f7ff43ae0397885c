import { createSchema, createYoga } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { useAnswerSizeLimit } from "~/api/answer-size.server";
import { JIT_AFTER_RUNS, useJitForRepeatedOperations } from "~/api/jit.server";

/** A yoga whose one field answers as many characters as asked, behind the limit (and, like the API's, graphql-jit). */
function yogaWithLimit(maxChars: number) {
  return createYoga({
    schema: createSchema({
      typeDefs: "type Query { text(length: Int!): String! }",
      resolvers: { Query: { text: (_: unknown, { length }: { length: number }) => "x".repeat(length) } },
    }),
    plugins: [useJitForRepeatedOperations(), useAnswerSizeLimit(maxChars)],
    logging: false,
  });
}

// A string query: `text` is a field of this test's own schema, which the generated documents do not know.
const ask = async (yoga: ReturnType<typeof yogaWithLimit>, length: number) => {
  const response = await yoga.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: `{ text(length: ${length}) }` }),
  });
  return {
    status: response.status,
    body: (await response.json()) as {
      data?: { text: string } | null;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    },
  };
};

describe("the answer size limit", () => {
  it("sends answers up to the limit as they are", async () => {
    const { body } = await ask(yogaWithLimit(1000), 900);
    expect(body.data?.text).toHaveLength(900);
  });

  it("refuses a larger answer with an error that says so, instead of sending it", async () => {
    const { body } = await ask(yogaWithLimit(1000), 5000);
    expect(body.data ?? null).toBeNull();
    expect(body.errors).toEqual([
      {
        message: expect.stringMatching(/^The answer would be larger than 1000 characters/),
        extensions: { code: "BAD_USER_INPUT", maxChars: 1000 },
      },
    ]);
  });

  it("measures compiled answers too (graphql-jit serializes them itself)", async () => {
    const yoga = yogaWithLimit(1000);
    for (let run = 0; run < JIT_AFTER_RUNS + 1; run++) {
      const { body } = await ask(yoga, 5000);
      expect(body.errors?.[0]?.extensions?.code, `run ${run + 1}`).toBe("BAD_USER_INPUT");
    }
    expect((await ask(yoga, 900)).body.data?.text).toHaveLength(900);
  });
});
