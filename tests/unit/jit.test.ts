import { createSchema, createYoga, type Plugin } from "graphql-yoga";
import { describe, expect, it } from "vitest";
import { JIT_AFTER_RUNS, useJitForRepeatedOperations } from "~/api/jit.server";

/** A yoga with the plugin, recording for each execution whether graphql-jit ran it (its results carry a serializer). */
function yogaWithJit() {
  const compiled: boolean[] = [];
  const recordExecutor: Plugin = {
    onExecute: () => ({
      onExecuteDone({ result }) {
        compiled.push(typeof (result as { stringify?: unknown }).stringify === "function");
      },
    }),
  };
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: "type Query { hello(name: String!): String!, fails: String }",
      resolvers: {
        Query: {
          hello: (_: unknown, { name }: { name: string }) => `hello ${name}`,
          fails: () => {
            throw new Error("no");
          },
        },
      },
    }),
    plugins: [useJitForRepeatedOperations(), recordExecutor],
    logging: false,
  });
  // Strings by design: the test's own schema, and the plugin counts runs of the same document text.
  const run = async (query: string, variables: Record<string, unknown> = {}, operationName?: string) => {
    const response = await yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables, operationName }),
    });
    return response.json();
  };
  return { run, compiled };
}

describe("graphql-jit for repeated operations", () => {
  it(`compiles a document from its run number ${JIT_AFTER_RUNS} on, with the same answers`, async () => {
    const { run, compiled } = yogaWithJit();
    const query = "query ($name: String!) { hello(name: $name) }";
    const answers = [];
    for (const name of ["a", "b", "c"]) answers.push(await run(query, { name }));
    expect(answers).toEqual(["a", "b", "c"].map((name) => ({ data: { hello: `hello ${name}` } })));
    expect(compiled).toEqual([false, true, true]);
  });

  it("leaves one-off documents uncompiled", async () => {
    const { run, compiled } = yogaWithJit();
    await run(`{ first: hello(name: "x") }`);
    await run(`{ second: hello(name: "x") }`);
    expect(compiled).toEqual([false, false]);
  });

  it("answers each operation of a document of several, asked for by name, with its own answer", async () => {
    const { run, compiled } = yogaWithJit();
    const document = `query One { hello(name: "one") } query Two { hello(name: "two") }`;
    const answers = [];
    for (const name of ["One", "One", "Two", "Two"]) answers.push(await run(document, {}, name));
    expect(answers).toEqual(["one", "one", "two", "two"].map((name) => ({ data: { hello: `hello ${name}` } })));
    expect(compiled).toEqual([false, false, false, false]);
  });

  it("reports resolver errors with the same data, message, path and code compiled or not", async () => {
    const { run, compiled } = yogaWithJit();
    const answers = [await run("{ fails }"), await run("{ fails }")];
    expect(compiled).toEqual([false, true]);
    // Compiled errors carry no `locations` (the client never reads them); the rest is equal.
    const comparable = ({ data, errors }: { data: unknown; errors: Array<{ locations?: unknown }> }) => ({
      data,
      errors: errors.map(({ locations: _locations, ...error }) => error),
    });
    expect(comparable(answers[1])).toEqual(comparable(answers[0]));
    expect(answers[1]).toEqual({
      data: { fails: null },
      errors: [{ message: "Unexpected error.", path: ["fails"], extensions: { code: "INTERNAL_SERVER_ERROR" } }],
    });
  });
});
