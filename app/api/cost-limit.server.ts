import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  type ArgumentNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationRule,
} from "graphql";
import { MAX_PUSH_ENDPOINTS_LISTED, MAX_SESSIONS_LISTED } from "./schema/account-security.server";
import { MAX_BRIEFINGS } from "./schema/briefings.server";
import { MAX_PAGE } from "./schema/messages.server";
import { MAX_PLACES } from "./schema/places.server";
import { MAX_RULES } from "./schema/alert-rules.server";
import { MAX_WARNING_ITEMS } from "./schema/warnings.server";
import { BRIEFING_CHANNELS, CONDITIONS, WEEKDAYS } from "../shared/enum-values";

/**
 * What an operation may cost: every field counts 1, and everything under a list counts once
 * per item (of a message's content, only its dearest kind's parts: EXCLUSIVE_FIELDS). The
 * app's largest operation (20 places with 48 hours and 7 days of weather) costs ≈ 8 200,
 * and a unit test keeps every app operation under a quarter of the limit;
 * one request cannot ask for megabytes (15 aliases of 20 places × 168 hours × 13 fields
 * cost ≈ 700 000).
 */
export const MAX_COST = 40_000;

/**
 * How many items a list (or a paged connection) can hold. `argument` sizes it when the
 * operation gives the argument as a literal (an int, or a list whose length counts); a
 * variable or a missing argument counts as `max`, the most the resolver accepts or the
 * product allows, so that no variable can make an operation look cheaper than it is.
 * Absent from this table, a list is refused by the unit test that walks the schema.
 */
type ListSize = { argument?: string; max: number };

/** previewAlertRule's matches are runs of matching hours in the next 72, at least one other hour apart. */
const PREVIEW_MATCHES_PER_PLACE = 72 / 2;

export const LIST_SIZES: Record<string, ListSize> = {
  "Query.places": { max: MAX_PLACES },
  "User.places": { max: MAX_PLACES },
  "Briefing.places": { max: MAX_PLACES },
  "MessageContent.places": { max: MAX_PLACES },
  "MessageContent.alertPlaces": { max: MAX_PLACES },
  // A list of scalars: it costs one, whatever its length (at most MAX_ALERT_WINDOWS_PER_PLACE).
  "AlertPlaceWindows.windows": { max: 1 },
  "Mutation.reorderPlaces": { max: MAX_PLACES },
  "Query.searchLocations": { argument: "count", max: 20 },
  "Weather.hourly": { argument: "hours", max: 168 },
  "Weather.daily": { argument: "days", max: 8 },
  // One local day: 25 hours on the day clocks go back.
  "Weather.hourlyOn": { max: 25 },
  "Weather.nowcast": { max: 8 },
  "AirQuality.pollen": { max: 6 },
  "PlaceWarnings.items": { argument: "first", max: MAX_WARNING_ITEMS },
  // The page's size counts for everything in the connection; its edges are that page.
  "Query.messages": { argument: "first", max: MAX_PAGE },
  "MessageConnection.edges": { max: 1 },
  "Mutation.markRead": { argument: "ids", max: MAX_PAGE },
  "Query.briefings": { max: MAX_BRIEFINGS },
  "Briefing.days": { max: WEEKDAYS.length },
  "Briefing.delivery": { max: BRIEFING_CHANNELS.length },
  "Query.alertRules": { max: MAX_RULES },
  "Mutation.addAlertRules": { argument: "inputs", max: MAX_RULES },
  "AlertRule.conditions": { max: CONDITIONS.length },
  "AlertRule.activeDays": { max: WEEKDAYS.length },
  "Query.previewAlertRule": { max: MAX_PLACES * PREVIEW_MATCHES_PER_PLACE },
  // One language of the app each at most (message-content.ts keeps no more).
  "MessageWarning.texts": { max: 4 },
  "MessageWarning.places": { max: MAX_PLACES },
  "User.sessions": { max: MAX_SESSIONS_LISTED },
  "User.pushEndpoints": { max: MAX_PUSH_ENDPOINTS_LISTED },
};

/**
 * Types whose fields come in groups of which an answer fills one at most: such an object
 * costs its other fields and its dearest group, not every group. A message's content is one
 * kind's (message-content.ts, written only by the bot): an alert's windows, a briefing's
 * places or a warning, never two of them; counting all three would charge every message of
 * an inbox page for a briefing's 20 places, an alert's 20 and a warning's 20.
 */
export const EXCLUSIVE_FIELDS: Record<string, ReadonlyArray<readonly string[]>> = {
  MessageContent: [
    ["ruleName", "metric", "comparator", "threshold", "from", "to", "peakAt", "peakValue", "condition", "aqiScale", "alertPlaces"],
    ["briefingName", "period", "places"],
    ["warning"],
  ],
};

/** Every coordinate `Type.field` whose items the table must size: list fields, and fields sized there on purpose. */
export function listCoordinates(schema: GraphQLSchema): string[] {
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__") || !isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (isListType(getNullableType(field.type))) found.push(`${type.name}.${field.name}`);
    }
  }
  return found;
}

function sizeOf(coordinate: string, field: GraphQLField<unknown, unknown>, args: readonly ArgumentNode[] | undefined): number {
  const size = LIST_SIZES[coordinate];
  if (!size) return isListType(getNullableType(field.type)) ? Number.POSITIVE_INFINITY : 1;
  if (!size.argument) return size.max;
  const given = args?.find((arg) => arg.name.value === size.argument)?.value;
  if (!given) {
    const fallback = field.args.find((arg) => arg.name === size.argument)?.defaultValue;
    return typeof fallback === "number" ? fallback : size.max;
  }
  if (given.kind === Kind.INT) return Number(given.value);
  if (given.kind === Kind.LIST) return given.values.length;
  return size.max;
}

/** The cost of each operation of `document` (unknown fields and fragments cost nothing: validation names them). */
export function operationCosts(schema: GraphQLSchema, document: DocumentNode): Array<{ name: string | null; cost: number }> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  // A fragment costs the same wherever it is spread: counted once, however often it is used.
  const fragmentCosts = new Map<string, number>();
  const visiting = new Set<string>();

  function fragmentCost(name: string): number {
    const known = fragmentCosts.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    // An unknown or cyclic spread is refused by other rules; here it costs nothing.
    if (!fragment || visiting.has(name)) return 0;
    const type = schema.getType(fragment.typeCondition.name.value);
    if (!type || !isCompositeType(type)) return 0;
    visiting.add(name);
    const cost = selectionCost(fragment.selectionSet, type);
    visiting.delete(name);
    fragmentCosts.set(name, cost);
    return cost;
  }

  function selectionCost(selectionSet: SelectionSetNode, parent: GraphQLCompositeType): number {
    let cost = 0;
    // Fields of exclusive groups (see EXCLUSIVE_FIELDS) are summed per group; only the dearest group counts.
    // What fragments select counts in full: the fallback is never cheaper than the truth.
    const groups = EXCLUSIVE_FIELDS[parent.name];
    const groupCosts = groups ? groups.map(() => 0) : [];
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        cost += fragmentCost(selection.name.value);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        if (type && isCompositeType(type)) cost += selectionCost(selection.selectionSet, type);
      } else {
        let fieldCost = 1;
        const field = "getFields" in parent ? parent.getFields()[selection.name.value] : undefined; // unions have only __typename
        if (field) {
          const type = getNamedType(field.type);
          const children = selection.selectionSet && isCompositeType(type) ? selectionCost(selection.selectionSet, type) : 0;
          fieldCost += children * sizeOf(`${parent.name}.${field.name}`, field, selection.arguments);
        }
        const group = groups?.findIndex((names) => names.includes(selection.name.value)) ?? -1;
        if (group >= 0) groupCosts[group]! += fieldCost;
        else cost += fieldCost;
      }
    }
    return cost + Math.max(0, ...groupCosts);
  }

  const roots = { query: schema.getQueryType(), mutation: schema.getMutationType(), subscription: schema.getSubscriptionType() };
  return document.definitions.flatMap((definition) => {
    if (definition.kind !== Kind.OPERATION_DEFINITION) return [];
    const root = roots[definition.operation];
    return root ? [{ name: definition.name?.value ?? null, cost: selectionCost(definition.selectionSet, root) }] : [];
  });
}

/** Refuses an operation that costs more than `maxCost` (see LIST_SIZES), before anything runs. */
export function costLimitRule(maxCost = MAX_COST): ValidationRule {
  return (context) => ({
    Document: {
      leave(document) {
        for (const { name, cost } of operationCosts(context.getSchema(), document)) {
          if (cost <= maxCost) continue;
          context.reportError(
            new GraphQLError(
              `${name ? `Operation "${name}"` : "The operation"} asks for too much at once: it costs ${
                Number.isFinite(cost) ? Math.ceil(cost) : "an unbounded amount"
              }, and at most ${maxCost} is allowed (each field counts once per list item: ask for fewer places, hours, days or aliases)`,
              { extensions: { code: "BAD_USER_INPUT", cost: Number.isFinite(cost) ? cost : null, maxCost } },
            ),
          );
        }
      },
    },
  });
}
