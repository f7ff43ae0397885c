import { serialize } from "node:v8";
import { isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { createApiSchema } from "~/api/schema/index.server";
import { typeDefs } from "~/api/schema/schema-sdl.generated";

/** Whether V8 holds the string one byte per character (its serializer tags such strings `"`, two-byte ones `c`). */
const oneByte = (text: string) => serialize(text)[2] === '"'.charCodeAt(0);

describe("the API schema's names", () => {
  it("are one-byte strings, so answers' JSON is: the SDL has no character beyond Latin-1", () => {
    // One "…" in a description made the whole SDL a two-byte string, every name the parser cut from it too, and so
    // every answer's JSON with a __typename in it: UTF-8 encoding of the signed-in page's 69 KB data script then took
    // 81 µs instead of 16.
    expect([...typeDefs].filter((character) => character.charCodeAt(0) > 0xff)).toEqual([]);
    const types = Object.values(createApiSchema().getTypeMap()).filter(isObjectType);
    expect(types.map((type) => type.name)).toContain("HourlyForecast");
    expect(types.filter((type) => !oneByte(type.name)).map((type) => type.name)).toEqual([]);
    expect(oneByte(JSON.stringify({ __typename: types.find((type) => type.name === "HourlyForecast")!.name }))).toBe(true);
  });

  it("tells one-byte strings from two-byte ones", () => {
    expect(oneByte("HourlyForecast")).toBe(true);
    // ASCII text cut from a two-byte string stays two-byte.
    expect(oneByte("…HourlyForecast".slice(1))).toBe(false);
  });
});
