import { parse, validate, type DocumentNode } from "graphql";
import { describe, expect, it } from "vitest";
import { costLimitRule, LIST_SIZES, listCoordinates, MAX_COST, operationCosts } from "~/api/cost-limit.server";
import { createApiSchema } from "~/api/schema/index.server";
import * as documents from "~/lib/graphql/documents";
import * as laterDocuments from "~/lib/graphql/later-documents";

const schema = createApiSchema();
const cost = (query: string) => operationCosts(schema, parse(query))[0]!.cost;

const appDocuments = Object.entries({ ...documents, ...laterDocuments }).filter(
  (entry): entry is [string, DocumentNode] =>
    typeof entry[1] === "object" && entry[1] !== null && (entry[1] as { kind?: string }).kind === "Document",
);

describe("the cost limit", () => {
  it("knows how long every list of the schema can be", () => {
    const unsized = listCoordinates(schema).filter((coordinate) => !(coordinate in LIST_SIZES));
    expect(unsized).toEqual([]);
    // and sizes nothing the schema does not have
    for (const coordinate of Object.keys(LIST_SIZES)) {
      const [type, field] = coordinate.split(".") as [string, string];
      expect(schema.getType(type)?.toConfig()).toHaveProperty(["fields", field]);
    }
  });

  it("keeps every one of the app's own operations well within the limit (under a quarter of it)", () => {
    const operations = appDocuments.flatMap(([name, document]) =>
      operationCosts(schema, document).map((operation) => ({ name: `${name} ${operation.name ?? ""}`, cost: operation.cost })),
    );
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      expect(operation.cost, operation.name).toBeLessThan(MAX_COST / 4);
      expect(operation.cost, operation.name).toBeGreaterThan(0);
    }
    // The app's documents pass the rule as the server runs it.
    for (const [name, document] of appDocuments) {
      if (!document.definitions.some((definition) => definition.kind === "OperationDefinition")) continue;
      expect(validate(schema, document, [costLimitRule()]), name).toEqual([]);
    }
  });

  it("multiplies by list sizes: literal arguments, defaults, and a variable as the most it may ask for", () => {
    const hour = "hourly(hours: 10) { id temperature }";
    expect(cost(`{ weatherAt(latitude: 1, longitude: 1) { ${hour} } }`)).toBe(1 + 1 + 10 * 2);
    expect(cost(`{ weatherAt(latitude: 1, longitude: 1) { hourly { id } } }`)).toBe(1 + 1 + 48 * 1);
    expect(cost(`query ($h: Int) { weatherAt(latitude: 1, longitude: 1) { hourly(hours: $h) { id } } }`)).toBe(1 + 1 + 168);
    // Places have no argument: the most a user can have.
    expect(cost(`{ places { id } }`)).toBe(1 + 20);
    expect(cost(`{ messages(first: 5) { edges { id } hasMore } }`)).toBe(1 + 5 * (1 + 1 + 1));
    expect(cost(`mutation { markRead(ids: ["a", "b"]) { id } }`)).toBe(1 + 2);
    // Fragments count where they are spread, as often as they are.
    expect(cost(`{ a: places { ...P } b: places { ...P } } fragment P on Place { id label }`)).toBe(2 * (1 + 20 * 2));
  });

  it("counts a message's content as its dearest kind: an alert's, a briefing's or a warning's parts, not all of them", () => {
    const place = "place { id label timeZone }";
    const alert = `ruleName alertPlaces { ${place} windows }`; // 1 + (1 + 20 × (4 + 1))
    const briefing = `briefingName places { ${place} minTemperature }`; // 1 + (1 + 20 × (4 + 1))
    const warning = `warning { service texts { event } places { id } }`; // 1 + 1 + (1 + 4) + (1 + 20)
    const content = (parts: string) => cost(`{ messages(first: 1) { edges { content { version ${parts} } } } }`);
    expect(content(alert)).toBe(1 + 1 + 1 + 1 + 102);
    expect(content(briefing)).toBe(1 + 1 + 1 + 1 + 102);
    expect(content(warning)).toBe(1 + 1 + 1 + 1 + 28);
    expect(content(`${alert} ${briefing} ${warning}`)).toBe(1 + 1 + 1 + 1 + 102);
    // Fields outside the groups count in full, as does a group asked for twice.
    expect(content(`${alert} ruleName`)).toBe(content(alert) + 1);
    expect(content(`${warning} place { id }`)).toBe(content(warning) + 2);
    // What a fragment selects counts in full.
    expect(
      cost(
        `{ messages(first: 1) { edges { content { ...A ...B } } } } fragment A on MessageContent { ${alert} } fragment B on MessageContent { ${briefing} }`,
      ),
    ).toBe(1 + 1 + 1 + 102 + 102);
  });

  it("refuses an operation over the limit with a message and BAD_USER_INPUT", () => {
    const fields =
      "id time condition weatherCode isDay temperature apparentTemperature precipitation precipitationProbability snowfall windSpeed windGusts uvIndex";
    const flood = Array.from({ length: 15 }, (_, i) => `a${i}: places { weather { hourly(hours: 168) { ${fields} } } }`).join(" ");
    const [error, ...rest] = validate(schema, parse(`query Flood { ${flood} }`), [costLimitRule()]);
    expect(rest).toEqual([]);
    expect(error!.message).toMatch(/^Operation "Flood" asks for too much at once: it costs \d+, and at most 40000 is allowed/);
    expect(error!.extensions).toMatchObject({ code: "BAD_USER_INPUT", maxCost: MAX_COST });
    expect(error!.extensions.cost).toBeGreaterThan(600_000);
  });
});
