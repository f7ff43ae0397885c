import type { ApiContext } from "../context.server";
import { warningPlace } from "../bot/warning-areas.server";
import { LOCALE_OF } from "../bot/texts.server";
import { badInput } from "../errors.server";
import { cacheable, cacheableFields, validUntil } from "../result-cache.server";
import type { OfficialWarning, WarningsOutcome } from "../warnings/official-warning.server";
import type { PlaceWarningsMapper } from "./mappers";
import type { OfficialWarningResolvers, PlaceWarningsResolvers, Resolvers } from "./resolvers.generated";

/**
 * How long a page waits for a place's warnings. The layer's own timeout is 10 s per exchange: a slow service would
 * hold every page of its places that long. After this the card says the service is unavailable, and the layer's
 * fetch goes on, so the next page has its answer (shared with everyone in the area).
 */
export const WARNINGS_WAIT_MS = 2_500;

/** The most warnings a place's `items` gives (a country's feed can list dozens). */
export const MAX_WARNING_ITEMS = 20;

/** The outcome, or an unavailable one once `ms` have passed (the fetch goes on without this caller). */
function within(outcome: Promise<WarningsOutcome>, ms: number, late: () => WarningsOutcome): Promise<WarningsOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<WarningsOutcome>((resolve) => {
    timer = setTimeout(() => resolve(late()), ms);
  });
  return Promise.race([outcome, deadline]).finally(() => clearTimeout(timer));
}

/** In force: a cancellation tells the engine to clear a warning, not the card to show one. */
const inForce = (warnings: readonly OfficialWarning[]) => warnings.filter((warning) => warning.messageType !== "Cancel");

/** The place's own warnings (its point, its name or region) before those only known to be in its country; stable otherwise. */
const placeFirst = (warnings: readonly OfficialWarning[]) =>
  [...warnings].sort((a, b) => Number(a.match === "country") - Number(b.match === "country"));

/**
 * Until when an answer with these warnings holds: the area's next refresh, and the first end of a warning in it
 * (the layer leaves a warning out once its hazard has ended).
 */
function freshUntil(context: ApiContext, fetchedAt: Date, warnings: readonly OfficialWarning[]): number {
  let until = fetchedAt.getTime() + context.warnings.refreshMs;
  for (const { expires } of warnings) if (expires !== null) until = Math.min(until, Date.parse(expires));
  return until;
}

// The layer's CAP words as the schema's enum values.
const SEVERITY = { Extreme: "EXTREME", Severe: "SEVERE", Moderate: "MODERATE", Minor: "MINOR", Unknown: "UNKNOWN" } as const;
const URGENCY = { Immediate: "IMMEDIATE", Expected: "EXPECTED", Future: "FUTURE", Past: "PAST", Unknown: "UNKNOWN" } as const;
const CERTAINTY = { Observed: "OBSERVED", Likely: "LIKELY", Possible: "POSSIBLE", Unlikely: "UNLIKELY", Unknown: "UNKNOWN" } as const;
const MATCH = { point: "POINT", "area-name": "AREA_NAME", country: "COUNTRY" } as const;

export const warningsResolvers: Resolvers = {
  Place: {
    warnings: cacheable(async (place, _, context) => {
      const at = warningPlace(place);
      const coverage = context.warnings.coverage(at);
      if (!coverage.covered) return { coverage: "NOT_COVERED", service: null, fetchedAt: null, stale: false, warnings: [] };
      // The owner's settings: read through the request's loaders, so a cached answer ends when the language changes.
      const settings = await context.loaders.settings.load(place.user_id);
      const outcome = await within(context.warnings.warningsFor(at, LOCALE_OF[settings.language] ?? "en-US"), WARNINGS_WAIT_MS, () => ({
        status: "unavailable",
        serviceId: coverage.serviceId,
        reason: "timeout",
        message: "no answer in time for this page",
      }));
      if (outcome.status !== "ok") {
        // Asked again next time (the layer caches a failure a minute, so that costs no request upstream).
        validUntil(context, 0);
        return {
          coverage: outcome.status === "unavailable" ? "UNAVAILABLE" : "NOT_COVERED",
          service: coverage.credit,
          fetchedAt: null,
          stale: false,
          warnings: [],
        };
      }
      const warnings = placeFirst(inForce(outcome.warnings));
      // A stale answer (the service failing) is asked for again next time, as forecasts are.
      validUntil(context, outcome.stale ? 0 : freshUntil(context, outcome.fetchedAt, warnings));
      return { coverage: "COVERED", service: coverage.credit, fetchedAt: outcome.fetchedAt, stale: outcome.stale, warnings };
    }),
  },
  PlaceWarnings: cacheableFields<PlaceWarningsResolvers>({
    fetchedAt: (source: PlaceWarningsMapper) => source.fetchedAt?.toISOString() ?? null,
    count: (source: PlaceWarningsMapper) => source.warnings.length,
    items(source: PlaceWarningsMapper, { first }) {
      if (typeof first !== "number" || !Number.isInteger(first) || first < 1 || first > MAX_WARNING_ITEMS) {
        throw badInput(`first must be from 1 to ${MAX_WARNING_ITEMS}`, "first");
      }
      return source.warnings.slice(0, first);
    },
  }),
  OfficialWarning: cacheableFields<OfficialWarningResolvers>({
    severity: (warning) => SEVERITY[warning.severity],
    urgency: (warning) => URGENCY[warning.urgency],
    certainty: (warning) => CERTAINTY[warning.certainty],
    match: (warning) => MATCH[warning.match],
  }),
};
