import { parse, type FragmentDefinitionNode, type OperationDefinitionNode } from "graphql";
import { describe, expect, it } from "vitest";
import { selectsField } from "~/api/schema/selects-field";

/** The resolve info of the operation's first field, as graphql-js hands it to that field's resolver. */
function infoOf(source: string) {
  const document = parse(source);
  const operation = document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === "OperationDefinition",
  )!;
  const fragments = Object.fromEntries(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === "FragmentDefinition")
      .map((fragment) => [fragment.name.value, fragment]),
  );
  const field = operation.selectionSet.selections[0]!;
  if (field.kind !== "Field") throw new Error("expected a field");
  return { fieldNodes: [field], fragments };
}

describe("selectsField", () => {
  it("finds a field asked for directly, through a fragment (also nested) or an inline fragment", () => {
    expect(selectsField(infoOf("{ weatherAt { airQuality { usAqi } } }"), "airQuality")).toBe(true);
    expect(
      selectsField(
        infoOf("{ weatherAt { ...W } } fragment W on Weather { ...A } fragment A on Weather { airQuality { pm25 } }"),
        "airQuality",
      ),
    ).toBe(true);
    expect(selectsField(infoOf("{ weatherAt { ... on Weather { airQuality { pm25 } } } }"), "airQuality")).toBe(true);
  });

  it("does not find it when it is not asked for, or only deeper down", () => {
    expect(selectsField(infoOf("{ weatherAt { current { temperature } } }"), "airQuality")).toBe(false);
    expect(selectsField(infoOf("{ weatherAt { ...W } } fragment W on Weather { daily { date } }"), "airQuality")).toBe(false);
    expect(selectsField(infoOf("{ place { weather { airQuality { pm25 } } } }"), "airQuality")).toBe(false);
  });
});
