import { GraphQLScalarType, type ExecutionResult } from "graphql";
import { createSchema, createYoga } from "graphql-yoga";
import { describe, expect, it, vi } from "vitest";
import { ChangeTracker } from "~/api/db/change-tracker.server";
import {
  cacheable,
  newResultHints,
  RequestReads,
  uncacheableUnlessDeclared,
  useResultCache,
  type ResultHints,
} from "~/api/result-cache.server";
import { queryOnlyDb } from "../support/query-only-db";

type Context = { resultHints: ResultHints; session: { userId: string } | null; now: () => Date; reads: RequestReads };
type Tables = { words: { n: number } };

/**
 * A small API with the cache: `word(n)` may be cached (it runs a query on "words" through
 * its request's logging Kysely, as the API's resolvers do), and so may the mutation
 * `touch`, as far as its resolver goes; `count` is not cacheable. `careless` is cacheable but
 * queries the shared Kysely, outside its request's log.
 */
function smallApi(maxChars: number, { signedIn = true } = {}) {
  const runs = { word: 0, count: 0, touch: 0, careless: 0 };
  const changes = new ChangeTracker(() => 1);
  const db = queryOnlyDb<Tables>(changes);
  const cache = useResultCache(changes, maxChars);
  const resolvers = uncacheableUnlessDeclared({
    Query: {
      word: cacheable(async (_: unknown, { n }: { n: number }, context: Context) => {
        await changes.reads.logTo(db, context.reads).selectFrom("words").selectAll().execute();
        runs.word++;
        return "x".repeat(n);
      }),
      careless: cacheable(async () => {
        await db.selectFrom("words").selectAll().execute();
        return ++runs.careless;
      }),
      count: () => ++runs.count,
    },
    Mutation: { touch: cacheable(() => ++runs.touch > 0) },
  });
  const yoga = createYoga<object, Context>({
    schema: createSchema<Context>({
      typeDefs: "type Query { word(n: Int!): String! count: Int! careless: Int! } type Mutation { touch: Boolean! }",
      resolvers,
    }),
    context: () => ({
      resultHints: newResultHints(),
      session: signedIn ? { userId: "u1" } : null,
      now: () => new Date(),
      reads: new RequestReads(changes),
    }),
    plugins: [cache],
  });
  // Strings by design: the cache keys answers by document text, and this schema is the test's own, not the app's.
  const ask = async (query: string) => {
    const response = await yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    return response.text();
  };
  // The result as the page's server render gets it (in-process, no HTTP): its `data` read as objects.
  const execute = async (query: string) => {
    const { parse, contextFactory, execute: run, schema } = yoga.getEnveloped({ request: new Request("http://localhost/graphql") });
    return (await run({ schema, document: parse(query), contextValue: await contextFactory() })) as ExecutionResult;
  };
  return { ask, execute, runs, cache, changes };
}

describe("useResultCache", () => {
  it("caches answers up to its size in characters, the least recently used going first", async () => {
    const api = smallApi(220);
    const fifty = `{ word(n: 30) }`; // {"data":{"word":"xxx…"}}: 50 characters
    const other = `{ word(n: 31) }`;
    const third = `{ word(n: 32) }`;
    const fourth = `{ word(n: 33) }`;
    expect(await api.ask(fifty)).toBe(`{"data":{"word":"${"x".repeat(30)}"}}`);
    await api.ask(fifty);
    expect(api.runs.word).toBe(1);
    await api.ask(other);
    await api.ask(third);
    await api.ask(fifty); // now the most recently used
    await api.ask(fourth); // 50 + 51 + 52 + 53 = 206 characters: all fit in 220
    expect(api.cache.size).toBe(4);
    expect(api.runs.word).toBe(4);
    await api.ask(`{ word(n: 34) }`); // 260: `other`, least recently used, goes
    expect(api.cache.size).toBe(4);
    await api.ask(fifty);
    expect(api.runs.word).toBe(5);
    await api.ask(other);
    expect(api.runs.word).toBe(6);
  });

  it("reads a cached answer's data once, frozen, for every later reader of it", async () => {
    const api = smallApi(220);
    await api.ask(`{ word(n: 30) }`);
    const parse = vi.spyOn(JSON, "parse");
    try {
      const first = await api.execute(`{ word(n: 30) }`);
      const second = await api.execute(`{ word(n: 30) }`);
      expect(api.runs.word).toBe(1);
      expect(first.data).toEqual({ word: "x".repeat(30) });
      expect(second.data).toBe(first.data);
      expect(parse.mock.calls.filter(([text]) => text === `{"data":{"word":"${"x".repeat(30)}"}}`)).toHaveLength(1);
      expect(Object.isFrozen(first.data)).toBe(true);
      expect(() => Object.assign(first.data!, { word: "changed" })).toThrow(TypeError);
      // Sent as text, it is the cached text still.
      expect(await api.ask(`{ word(n: 30) }`)).toBe(`{"data":{"word":"${"x".repeat(30)}"}}`);
    } finally {
      parse.mockRestore();
    }
  });

  it("counts a cached answer read as objects twice towards its size", async () => {
    const api = smallApi(220);
    const fifty = `{ word(n: 30) }`; // 50 characters
    await api.ask(fifty);
    await api.ask(`{ word(n: 31) }`);
    await api.ask(`{ word(n: 32) }`); // 153 characters
    expect(api.cache.size).toBe(3);
    expect((await api.execute(fifty)).data).toEqual({ word: "x".repeat(30) }); // 203: all still fit
    expect(api.cache.size).toBe(3);
    await api.ask(`{ word(n: 33) }`); // 256: the least recently used, `n: 31`, goes
    expect(api.cache.size).toBe(3);
    await api.ask(fifty);
    await api.ask(`{ word(n: 32) }`);
    expect(api.runs.word).toBe(4);
    await api.ask(`{ word(n: 31) }`);
    expect(api.runs.word).toBe(5);
  });

  it("caches no answer bigger than a quarter of its size, none with an undeclared field, and no mutation", async () => {
    const api = smallApi(220);
    await api.ask(`{ word(n: 60) }`);
    await api.ask(`{ word(n: 60) }`);
    expect(api.runs.word).toBe(2);
    await api.ask(`{ word(n: 1) count }`);
    expect(await api.ask(`{ word(n: 1) count }`)).toBe(`{"data":{"word":"x","count":2}}`);
    await api.ask(`mutation { touch }`);
    await api.ask(`mutation { touch }`);
    expect(api.runs.touch).toBe(2);
    expect(api.cache.size).toBe(0);
  });

  it("caches nothing for a signed-out caller", async () => {
    const api = smallApi(220, { signedIn: false });
    await api.ask(`{ word(n: 1) }`);
    await api.ask(`{ word(n: 1) }`);
    expect(api.runs.word).toBe(2);
    expect(api.cache.size).toBe(0);
  });

  it("caches no answer during whose execution a query ran outside any log", async () => {
    const api = smallApi(220);
    expect(await api.ask(`{ careless }`)).toBe(`{"data":{"careless":1}}`);
    expect(await api.ask(`{ careless }`)).toBe(`{"data":{"careless":2}}`);
    expect(api.cache.size).toBe(0);
  });

  it("runs again after a write to a table the answer depends on", async () => {
    const api = smallApi(220);
    await api.ask(`{ word(n: 1) }`);
    api.changes.recordStatement('update "other" set x = 1');
    await api.ask(`{ word(n: 1) }`);
    expect(api.runs.word).toBe(1);
    api.changes.recordStatement('update "words" set x = 1');
    await api.ask(`{ word(n: 1) }`);
    expect(api.runs.word).toBe(2);
  });
});

describe("uncacheableUnlessDeclared", () => {
  it("marks resolvers not cacheable, and leaves cacheable ones, scalars and type resolvers as they are", () => {
    const scalar = new GraphQLScalarType({ name: "Day" });
    const declared = cacheable(() => "kept");
    const resolveType = () => "Place";
    const other = () => "one-off";
    const wrapped = uncacheableUnlessDeclared({ Query: { declared, other }, Day: scalar as never, Node: { __resolveType: resolveType } });
    expect(wrapped.Query!.declared).toBe(declared);
    expect(wrapped.Day).toBe(scalar);
    expect(wrapped.Node!.__resolveType).toBe(resolveType);
    const context = { resultHints: newResultHints() };
    expect((wrapped.Query!.other as (...args: unknown[]) => unknown)(null, {}, context, null)).toBe("one-off");
    expect(context.resultHints.cacheable).toBe(false);
  });
});
