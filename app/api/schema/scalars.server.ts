import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from "graphql";
import { canonicalTimeZone, isTimeZone } from "../../shared/time-zone";
import { isLocalTime } from "../../shared/local-time";
import type { InputIssue } from "../../shared/inputs/issues";
import { invalidInput } from "../input.server";

function stringScalar(
  name: string,
  description: string,
  check: (value: string) => string | null,
  normalise: (value: string) => string = (value) => value,
  /** The input issue a refused value is, where the scalar's field is always the same one (timeZone). */
  issue?: InputIssue,
) {
  const parse = (value: unknown) => {
    if (typeof value !== "string") throw new GraphQLError(`${name} must be a string`);
    const problem = check(value);
    // graphql-js keeps these extensions on the variable's error: forms read the issue from it.
    if (problem)
      throw new GraphQLError(
        `${name} ${problem}: ${JSON.stringify(value.slice(0, 80))}`,
        issue ? { extensions: invalidInput([issue]).extensions } : {},
      );
    return normalise(value);
  };
  return new GraphQLScalarType({
    name,
    description,
    serialize: (value) => (value instanceof Date ? value.toISOString() : String(value)),
    parseValue: parse,
    parseLiteral: (node: ValueNode) => {
      if (node.kind !== Kind.STRING) throw new GraphQLError(`${name} must be a string`);
      return parse(node.value);
    },
  });
}

const isDateTime = (value: string) =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));

export const scalarResolvers = {
  DateTime: stringScalar("DateTime", "An instant, ISO-8601 in UTC (2026-11-22T07:00:00.000Z).", (value) =>
    isDateTime(value) ? null : "must be an ISO-8601 date-time with a time zone",
  ),
  // A list of these costs one field (cost-limit.server.ts), where a list of objects with a start and an end costs three per item.
  TimeInterval: stringScalar(
    "TimeInterval",
    "A time interval, ISO-8601: its start and end instants (2026-11-22T07:00:00.000Z/2026-11-22T10:00:00.000Z).",
    (value) => {
      const [start, end, ...rest] = value.split("/");
      return rest.length === 0 && start && end && isDateTime(start) && isDateTime(end) && Date.parse(start) < Date.parse(end)
        ? null
        : "must be two ISO-8601 date-times, the start before the end, joined by /";
    },
  ),
  Date: stringScalar("Date", "A calendar date (2026-11-22), local to a place.", (value) =>
    /^\d{4}-\d{2}-\d{2}$/.test(value) ? null : "must look like 2026-11-22",
  ),
  LocalTime: stringScalar("LocalTime", "A wall-clock time, 24 h (07:30).", (value) =>
    isLocalTime(value) ? null : "must be a time from 00:00 to 23:59",
  ),
  // In any case on the way in ("europe/berlin"), stored and answered under its IANA name.
  TimeZone: stringScalar(
    "TimeZone",
    "An IANA time zone (Europe/Berlin).",
    (value) => (isTimeZone(value) ? null : "must be an IANA time zone such as Europe/Berlin"),
    (value) => canonicalTimeZone(value)!,
    { field: "timeZone", code: "TIME_ZONE_UNKNOWN" },
  ),
};
